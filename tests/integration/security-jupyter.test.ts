import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JupyterEndpoint } from "@/lib/engines/kernels/jupyter-server";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

/**
 * The jupyter-server Argus manages holds the keys to every kernel: its token
 * opens the kernels, contents and (by default) terminals APIs. Any local user
 * can read any process's command line, so the token must not be on one; and a
 * token holder must get nothing more than Argus's own sandboxed kernels.
 */

let k: KernelCore;
let ep: JupyterEndpoint;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "0" });
  ep = k.core.jupyter.endpoint()!;
});
afterAll(async () => {
  await k?.close();
});

/** Every process command line on the machine, as any local user can read them. */
function allCommandLines(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      // the process ended meanwhile
    }
  }
  return lines;
}

const jupyter = (path: string, init: RequestInit = {}) =>
  fetch(`${ep.baseUrl}${path}`, { ...init, headers: { authorization: `token ${ep.token}`, "content-type": "application/json" } });

describe("the managed jupyter-server", () => {
  it("keeps its token off every process command line", () => {
    expect(ep.token.length).toBeGreaterThan(20);
    const lines = allCommandLines();
    expect(lines.some((l) => l.includes("jupyter_server"))).toBe(true);
    expect(lines.filter((l) => l.includes(ep.token))).toEqual([]);
  });

  it("still answers only to its token", async () => {
    expect((await jupyter("/api/status")).status).toBe(200);
    expect((await fetch(`${ep.baseUrl}/api/status`, { headers: { authorization: "token wrong" } })).status).toBe(403);
  });

  it("offers no terminals", async () => {
    const list = await jupyter("/api/terminals");
    expect(list.status).toBe(404);
    const create = await jupyter("/api/terminals", { method: "POST", body: "{}" });
    expect(create.status).toBe(404);
  });

  it("offers only Argus's sandboxed kernelspec, and refuses to start any other", async () => {
    const specs = (await (await jupyter("/api/kernelspecs")).json()) as { kernelspecs: Record<string, unknown> };
    expect(Object.keys(specs.kernelspecs)).toEqual(["argus-python"]);
    const native = await jupyter("/api/kernels", { method: "POST", body: JSON.stringify({ name: "python3" }) });
    expect(native.status).not.toBe(201);
    expect(native.status).toBeGreaterThanOrEqual(400);
    const running = (await (await jupyter("/api/kernels")).json()) as unknown[];
    expect(running).toEqual([]);
  });
});
