import { describe, expect, it } from "vitest";
import { jupyterLaunchDir } from "./jupyter-launch-dir";

describe("jupyterLaunchDir", () => {
  it("gives each instance with a fixed id a directory of its own, the same after a restart", () => {
    const a = jupyterLaunchDir("/data/jupyter", "argus-1");
    expect(a).toBe("/data/jupyter/instances/argus-1");
    expect(jupyterLaunchDir("/data/jupyter", "argus-2")).not.toBe(a);
    expect(jupyterLaunchDir("/data/jupyter", "argus-1")).toBe(a);
  });

  it("keeps a lone instance (an id made at start) in the data dir's one Jupyter directory", () => {
    expect(jupyterLaunchDir("/data/jupyter", null)).toBe("/data/jupyter");
  });
});
