/**
 * The doctor and a computer-use browser model: with ARGUS_BROWSER_API resolving to `responses`,
 * the browser role is probed through the scripted model's /v1/responses (one request with the
 * computer tool and a picture), never through Chat Completions, which such a model does not serve.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { runDoctor } from "@/lib/features/doctor/run-doctor";
import { renderReport } from "@/lib/features/doctor/table";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { loadScenario, startScriptedModel, type ScriptedModel, type Turn } from "@/scripted-model/server";

let server: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CUA = "computer-use-preview";
const chatTurns = loadScenario("e2e/scenarios/doctor.json").turns;

async function doctor(browserTurns: Turn[], env: Record<string, string> = {}) {
  server = await startScriptedModel({ name: "doctor-responses", turns: [...chatTurns, ...browserTurns] });
  const config = loadConfig({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS, ARGUS_MODEL_BROWSER: CUA, ...env }, "/tmp");
  return { config, report: await runDoctor(config.model, { timeoutMs: 10_000, browserApi: config.browser.api }) };
}

describe("the doctor and a computer-use browser model", () => {
  it("probes it through /responses with the computer tool and a picture, and finds it ok", async () => {
    const { config, report } = await doctor([{ model: CUA, text: "Red.", expect: { images: 1, toolNames: ["computer_use_preview"] } }]);
    expect(config.browser.api).toBe("responses");
    const browser = report.rows.find((r) => r.role === "browser")!;
    expect(browser).toMatchObject({ verdict: "ok", probe: { api: "responses", reachable: true, known: "yes", tools: "native", images: "yes", streaming: "n/a" } });
    expect(report.ok).toBe(true);
    expect(server!.requests.filter((r) => r.model === CUA).map((r) => [r.api ?? "chat", r.status])).toEqual([["responses", 200]]);
    expect(renderReport(report)).toMatch(/browser\s+computer-use-preview\s+yes\s+yes\s+native \(responses\)\s+yes\s+n\/a\s+ok/);
  });

  it("says what to do when the endpoint has no Responses API", async () => {
    const { report } = await doctor([{ model: CUA, fault: { status: 404, message: "Unknown route /v1/responses" } }]);
    const browser = report.rows.find((r) => r.role === "browser")!;
    expect(browser).toMatchObject({ verdict: "down", probe: { api: "responses", tools: "none" } });
    expect(report.fixes).toEqual([
      `ARGUS_MODEL_BROWSER=${CUA} did not take the Responses API's computer tool (404: Unknown route /v1/responses (scripted fault)): use OpenAI's computer-use-preview, or set ARGUS_BROWSER_API=chat to browse over Chat Completions.`,
    ]);
  });

  it("with ARGUS_BROWSER_API=chat the same model is probed over Chat Completions like any other", async () => {
    const chatProbe: Turn[] = [
      { model: CUA, toolCalls: [{ name: "probe_ok", args: { ok: true } }] },
      { model: CUA, text: "Red.", expect: { images: 1 } },
      { model: CUA, text: "ok" },
    ];
    const { config, report } = await doctor(chatProbe, { ARGUS_BROWSER_API: "chat" });
    expect(config.browser.api).toBe("chat");
    expect(report.rows.find((r) => r.role === "browser")).toMatchObject({ verdict: "ok", probe: { tools: "native", streaming: "yes" } });
    expect(report.rows.find((r) => r.role === "browser")!.probe!.api).toBeUndefined();
    expect(server!.requests.some((r) => r.api === "responses")).toBe(false);
  });
});
