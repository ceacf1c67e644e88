import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { KernelLedger, ledgerIds } from "./kernel-ledger";

const scratch = tempDir("argus-ledger-");
afterEach(() => scratch.cleanup());

describe("ledgerIds", () => {
  it("keeps each well-formed id once, in order", () => {
    expect(ledgerIds("a-1\nb-2\n\na-1\n  c-3  \nnot an id\n../x\n")).toEqual(["a-1", "b-2", "c-3"]);
  });
});

describe("KernelLedger", () => {
  const ledger = () => KernelLedger.forInstance(scratch.dir, "argus-1");

  it("shuts down what it recorded, except sessions' notebooks, and starts a fresh record", async () => {
    const first = ledger();
    first.add("k-pooled");
    first.add("k-session");
    first.add("k-gone");
    expect(readFileSync(path.join(scratch.dir, "kernels", "argus-1.ids"), "utf8")).toBe("k-pooled\nk-session\nk-gone\n");
    const shut: string[] = [];
    const restarted = ledger();
    const result = await restarted.reclaim({
      holder: async (id) => (id === "k-session" ? "session-1" : null),
      shutdown: async (id) => void shut.push(id),
    });
    expect(result).toEqual({ stopped: ["k-pooled", "k-gone"], kept: ["k-session"] });
    expect(shut).toEqual(["k-pooled", "k-gone"]);
    expect(restarted.recorded()).toEqual([]);
    expect(await restarted.reclaim({ holder: async () => null, shutdown: async () => void shut.push("again") })).toEqual({ stopped: [], kept: [] });
    expect(shut).not.toContain("again");
  });

  it("never takes a kernel started during the reclaim for a left-behind one", async () => {
    const l = ledger();
    l.add("k-old");
    const result = await l.reclaim({
      holder: async () => {
        l.add("k-new"); // the pool filling while the reclaim waits on the database
        return null;
      },
      shutdown: async () => undefined,
    });
    expect(result.stopped).toEqual(["k-old"]);
    expect(l.recorded()).toEqual(["k-new"]);
  });

  it("keeps the ids for the next start when the Jupyter server does not answer", async () => {
    const l = ledger();
    l.add("k-1");
    l.add("k-2");
    await expect(l.reclaim({ holder: async () => null, shutdown: async () => Promise.reject(new Error("connection refused")) })).rejects.toThrow(/refused/);
    l.add("k-3");
    const shut: string[] = [];
    await l.reclaim({ holder: async () => null, shutdown: async (id) => void shut.push(id) });
    expect(shut).toEqual(["k-1", "k-2", "k-3"]);
    expect(existsSync(path.join(scratch.dir, "kernels", "argus-1.ids.reclaiming"))).toBe(false);
  });
});
