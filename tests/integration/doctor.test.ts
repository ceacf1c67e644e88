/**
 * `npm run doctor`'s probes against the scripted model speaking each server's dialect, and
 * against an address where nothing listens. The verdicts and the fixes are what a person reads.
 */
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { runDoctor } from "@/lib/features/doctor/run-doctor";
import { renderReport } from "@/lib/features/doctor/table";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { loadScenario, startScriptedModel, type Dialect, type ScriptedModel, type Turn } from "@/scripted-model/server";

let server: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const scenario = loadScenario("e2e/scenarios/doctor.json");
const settings = (url: string, extra: Record<string, string> = {}) =>
  loadConfig({ OPENAI_BASE_URL: url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS, ...extra }, "/tmp").model;

async function doctorAgainst(dialect: Dialect, turns: Turn[] = scenario.turns) {
  server = await startScriptedModel({ ...scenario, turns, dialect });
  return runDoctor(settings(server.url), { timeoutMs: 10_000 });
}

describe("npm run doctor against the scripted model", () => {
  it.each([
    ["openai", "native"],
    ["ollama", "native"],
    ["vllm-hermes", "text"],
    ["no-tools", "text"],
  ] as const)("%s: every role is reachable, known, streams, sees images; tools are %s", async (dialect, protocol) => {
    const report = await doctorAgainst(dialect);
    for (const row of report.rows) {
      expect(row.probe, row.role).toMatchObject({ reachable: true, known: "yes", tools: protocol, streaming: "yes" });
      expect(row.probe!.images).toBe(row.role === "conversation" || row.role === "coder" ? "n/a" : "yes");
      expect(row.verdict).toBe(protocol === "native" ? "ok" : "degraded");
    }
    expect(report.ok).toBe(true);
    if (protocol === "text") {
      expect(report.fixes).toContain("ARGUS_MODEL_PLANNER=planner answers in text, not tool calls (" + report.rows[1]!.probe!.toolsDetail + "): Argus uses its text protocol for it (ARGUS_TOOL_PROTOCOL_PLANNER=text, or leave it on auto).");
    } else {
      expect(report.fixes).toEqual([]);
    }
    expect(Object.values(server!.remaining()).every((n) => n === 0)).toBe(true);
  });

  it("a planner model that refuses images is down, with the fix in plain words", async () => {
    const turns = scenario.turns.map((t, i) => (i === 3 ? { model: "planner", probe: true, fault: { status: 400 as const, message: "image input is not supported for this model" }, text: "x" } : t));
    const report = await doctorAgainst("openai", turns);
    const planner = report.rows.find((r) => r.role === "planner")!;
    expect(planner).toMatchObject({ verdict: "down", probe: { images: "no" } });
    expect(report.ok).toBe(false);
    expect(report.fixes).toEqual([
      'ARGUS_MODEL_PLANNER=planner does not accept images (400: image input is not supported for this model (scripted fault)): use a vision model such as qwen2.5-vl, llava, gemma3 or gpt-4o.',
    ]);
  });

  it("a model the endpoint does not serve names the ones it does", async () => {
    server = await startScriptedModel(scenario);
    const report = await runDoctor(settings(server.url, { ARGUS_MODEL_CODER: "gpt-9" }), { timeoutMs: 10_000 });
    expect(report.rows.find((r) => r.role === "coder")).toMatchObject({ verdict: "down", probe: { known: "no" } });
    expect(report.fixes.find((f) => f.startsWith("gpt-9"))).toMatch(/^gpt-9 is not served at http:\/\/127\.0\.0\.1:\d+\/v1; it serves: conversation, planner, coder, vqa, judge\. Set ARGUS_MODEL_CODER/);
  });
});

describe("npm run doctor against nothing", () => {
  it("says nothing answers, how to start it, and exits 1", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/v1`;
    const report = await runDoctor(settings(url), { timeoutMs: 5_000 });
    expect(report.rows.every((r) => r.verdict === "down" && r.probe?.reachable === false)).toBe(true);
    expect(report.fixes).toEqual([`Nothing answers at OPENAI_BASE_URL=${url} (connection refused): start the server or fix the URL.`]);
    expect(renderReport(report)).toContain("Some roles cannot work");

    const cli = spawnSync(process.execPath, ["--import", "tsx", "scripts/doctor.ts"], {
      env: { ...process.env, OPENAI_BASE_URL: url, OPENAI_API_KEY: "x", ...ROLE_MODELS },
      encoding: "utf8",
    });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/role\s+model\s+reachable\s+model known\s+tools\s+images\s+streaming\s+verdict/);
    expect(cli.stdout).toContain(`- Nothing answers at OPENAI_BASE_URL=${url} (connection refused)`);
  });
});

describe("the status page's model check and health's models, through the real server", () => {
  it("health starts ok for configured roles; a check returns the doctor's report, then 429 within 20 s", async () => {
    const { startArgus, api } = await import("@/tests/helpers/argus-server");
    const { tempDir } = await import("@/tests/helpers/temp-dir");
    server = await startScriptedModel({ ...scenario, dialect: "no-tools" });
    const scratch = tempDir("argus-doctor-");
    const argus = await startArgus({
      dataDir: scratch.dir,
      env: { ARGUS_JUPYTER: "off", OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS },
    });
    try {
      const call = api(argus.url);
      const health = await call("GET", "/api/health");
      expect(health.json.models).toEqual({ conversation: "ok", planner: "ok", coder: "ok", vqa: "ok", judge: "ok" });
      // It takes no options: anything but an empty body or {} is refused before probing.
      const bad = await call("POST", "/api/models/check", { body: { models: ["planner"] } });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe("bad_request:api");
      const checked = await call("POST", "/api/models/check", { body: {} });
      expect(checked.status).toBe(200);
      expect(checked.json.rows.map((r: { role: string; verdict: string }) => [r.role, r.verdict])).toEqual([
        ["conversation", "degraded"],
        ["planner", "degraded"],
        ["coder", "degraded"],
        ["vqa", "degraded"],
        ["judge", "degraded"],
      ]);
      const again = await call("POST", "/api/models/check");
      expect(again.status).toBe(429);
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(again.json.error.message).toMatch(/^The models were checked a moment ago\. Try again in \d+ s\.$/);
    } finally {
      await argus.kill();
      scratch.cleanup();
    }
  });
});
