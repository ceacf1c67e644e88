import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { chooseJupyterBackend } from "./jupyter-backend-choice";
import { ExternalJupyter, NoJupyter } from "./jupyter-server";

const noLog = () => undefined;

describe("chooseJupyterBackend", () => {
  it("talks to an external server when JUPYTER_URL is set, which contains and limits its own kernels", async () => {
    const config = loadConfig({ JUPYTER_URL: "http://jupyter.example:8888/", JUPYTER_TOKEN: "t" }, "/srv/argus");
    const choice = await chooseJupyterBackend(config, "/srv/argus/python", noLog);
    expect(choice.jupyter).toBeInstanceOf(ExternalJupyter);
    expect(choice.starting).toBeNull();
    expect(choice.isolation.kind).toBe("external");
    expect(choice.limits.kind).toBe("external");
  });

  it("runs no Jupyter with ARGUS_JUPYTER=off, and says so", async () => {
    const config = loadConfig({ ARGUS_JUPYTER: "off" }, "/srv/argus");
    const choice = await chooseJupyterBackend(config, "/srv/argus/python", noLog);
    expect(choice.jupyter).toBeInstanceOf(NoJupyter);
    expect(choice.starting).toBeNull();
    expect(choice.isolation).toEqual({ kind: "none", reason: "Jupyter is off" });
    expect(choice.limits.kind).toBe("none");
  });
});
