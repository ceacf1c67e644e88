import { describe, expect, it } from "vitest";
import { EXTERNAL_SANDBOX_CAVEAT, judgeJupyter } from "./jupyter-check";

const target = { url: "http://j:8888", kernelName: "python3", transport: "kernel" as const };
const specs = (names: string[]) => JSON.stringify({ default: names[0], kernelspecs: Object.fromEntries(names.map((n) => [n, {}])) });

describe("judgeJupyter", () => {
  it("passes a reachable server that takes the token and offers the kernelspec", () => {
    const check = judgeJupyter(target, { status: 200, body: specs(["python3"]) });
    expect(check.ok).toBe(true);
    expect(check.lines[0]).toMatch(/reachable, the token works/);
  });

  it("names the fix for each failure", () => {
    expect(judgeJupyter(target, { status: 403, body: "" })).toMatchObject({ ok: false, lines: [expect.stringMatching(/refused JUPYTER_TOKEN .*Set JUPYTER_TOKEN/), expect.anything(), expect.anything()] });
    expect(judgeJupyter(target, { status: -1, body: "", networkError: "connection refused" }).lines[0]).toMatch(/cannot reach it \(connection refused\)/);
    expect(judgeJupyter(target, { status: 404, body: "" }).lines[0]).toMatch(/base path/);
    expect(judgeJupyter(target, { status: 200, body: "<html>" }).lines[0]).toMatch(/did not answer with Jupyter's JSON/);
    expect(judgeJupyter(target, { status: 200, body: specs(["ir", "julia"]) }).lines[0]).toMatch(/no kernelspec "python3" \(it offers: ir, julia\)/);
    // Argus's own spec missing: how to install it, not "pick another" (python3 has no helpers).
    const argus = judgeJupyter({ ...target, kernelName: "argus-python" }, { status: 200, body: specs(["python3"]) });
    expect(argus.ok).toBe(false);
    expect(argus.lines[0]).toMatch(/no kernelspec "argus-python" \(it offers: python3\)\. Install Argus's kernelspec on that host: `node --import tsx scripts\/jupyter-host.ts`/);
  });

  it("always states the sandbox caveat and the transport in use", () => {
    const kernel = judgeJupyter(target, { status: 200, body: specs(["python3"]) });
    expect(kernel.lines).toContain(EXTERNAL_SANDBOX_CAVEAT);
    expect(kernel.lines[1]).toMatch(/through the kernel/);
    const shared = judgeJupyter({ ...target, transport: "shared" }, { status: 200, body: specs(["python3"]) });
    expect(shared.lines[1]).toMatch(/set ARGUS_WORKSPACE_TRANSPORT=kernel/);
  });
});
