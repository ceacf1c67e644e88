import { describe, expect, it } from "vitest";
import type { ModelProbe } from "@/lib/foundation/protocol/doctor";
import { renderReport } from "./table";
import { judgeRole } from "./verdict";

const good: ModelProbe = { reachable: true, known: "yes", tools: "native", images: "yes", streaming: "yes" };
const URL_ = "http://localhost:11434/v1";

describe("judgeRole", () => {
  it("ok when everything the role needs works; images don't matter to the coder", () => {
    expect(judgeRole("planner", "qwen", good, URL_)).toEqual({ verdict: "ok", fixes: [] });
    expect(judgeRole("coder", "qwen", { ...good, images: "no" }, URL_)).toEqual({ verdict: "ok", fixes: [] });
  });

  it("not configured, unreachable (with the local server's start hint), key refused, model not served", () => {
    expect(judgeRole("judge", null, null, URL_).fixes).toEqual(["No model is set for the judge: set ARGUS_MODEL or ARGUS_MODEL_JUDGE."]);
    expect(judgeRole("planner", "qwen", { ...good, reachable: false, unreachableReason: "connection refused" }, URL_).fixes).toEqual([
      "Nothing answers at OPENAI_BASE_URL=http://localhost:11434/v1 (connection refused): start Ollama (`ollama serve`) or fix the URL.",
    ]);
    expect(judgeRole("planner", "qwen", { ...good, reachable: false }, "http://localhost:1234/v1").fixes[0]).toMatch(/start LM Studio's server/);
    expect(judgeRole("planner", "qwen", { ...good, authFailed: true }, URL_)).toMatchObject({ verdict: "down", fixes: [expect.stringMatching(/check OPENAI_API_KEY/)] });
    expect(judgeRole("planner", "qwen", { ...good, known: "no", served: ["llava", "qwen2.5vl"] }, URL_).fixes[0]).toBe(
      "qwen is not served at http://localhost:11434/v1; it serves: llava, qwen2.5vl. Set ARGUS_MODEL_PLANNER to one of those (or pull the model).",
    );
  });

  it("text protocol is degraded, no tools at all is down", () => {
    expect(judgeRole("coder", "llava", { ...good, tools: "text", toolsDetail: "tools were refused" }, URL_)).toEqual({
      verdict: "degraded",
      fixes: ["ARGUS_MODEL_CODER=llava answers in text, not tool calls (tools were refused): Argus uses its text protocol for it (ARGUS_TOOL_PROTOCOL_CODER=text, or leave it on auto)."],
    });
    expect(judgeRole("coder", "tiny", { ...good, tools: "none" }, URL_).verdict).toBe("down");
  });

  it("a planner without vision is down and told which models see images; no streaming is down", () => {
    const j = judgeRole("planner", "llama3", { ...good, images: "no", imagesDetail: "400: no images" }, URL_);
    expect(j).toEqual({ verdict: "down", fixes: ["ARGUS_MODEL_PLANNER=llama3 does not accept images (400: no images): use a vision model such as qwen2.5-vl, llava, gemma3 or gpt-4o."] });
    expect(judgeRole("conversation", "m", { ...good, streaming: "no" }, URL_).verdict).toBe("down");
  });
});

describe("renderReport", () => {
  it("one aligned table, then the fixes, then the bottom line", () => {
    const text = renderReport({
      baseUrl: URL_,
      rows: [
        { role: "planner", model: "qwen", probe: good, verdict: "ok" },
        { role: "coder", model: null, probe: null, verdict: "down" },
      ],
      fixes: ["No model is set for the coder: set ARGUS_MODEL or ARGUS_MODEL_CODER."],
      ok: false,
    });
    expect(text.split("\n")).toEqual([
      "Models at http://localhost:11434/v1",
      "",
      "role     model      reachable  model known  tools   images  streaming  verdict",
      "-------  ---------  ---------  -----------  ------  ------  ---------  -------",
      "planner  qwen       yes        yes          native  yes     yes        ok",
      "coder    (not set)  -          -            -       -       -          down",
      "",
      "- No model is set for the coder: set ARGUS_MODEL or ARGUS_MODEL_CODER.",
      "",
      "Some roles cannot work until the problems above are fixed.",
    ]);
  });

  it("a browser model probed through the Responses API: ok without streaming, down with its own fix when the computer tool is not taken", () => {
    const responses: ModelProbe = { ...good, streaming: "n/a", api: "responses" };
    expect(judgeRole("browser", "computer-use-preview", responses, URL_)).toEqual({ verdict: "ok", fixes: [] });
    expect(judgeRole("browser", "computer-use-preview", { ...responses, tools: "none", toolsDetail: "404: not found" }, URL_)).toEqual({
      verdict: "down",
      fixes: ["ARGUS_MODEL_BROWSER=computer-use-preview did not take the Responses API's computer tool (404: not found): use OpenAI's computer-use-preview, or set ARGUS_BROWSER_API=chat to browse over Chat Completions."],
    });
  });
});
