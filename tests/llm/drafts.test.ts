/**
 * Live drafts through ModelClient against the scripted model over HTTP: the real AI SDK provider
 * streams the reply, `onDraft` sees it grow, and what `draftView` makes of the last draft is what
 * the validated call holds, for both tool protocols. A restart (repair) starts the draft over.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { draftView, type ReplyDraft } from "@/lib/engines/llm/draft";
import { ModelClient, type ToolSpecs } from "@/lib/engines/llm/models";
import { startScriptedModel, type ScriptedModel, type Turn } from "@/scripted-model/server";

const byRole = { conversation: "conversation", planner: "planner", coder: "coder", vqa: "vqa", judge: "judge" };
const tools = {
  execute_python: { description: "Run Python.", schema: z.object({ thinking: z.string(), code: z.string().min(1) }), draft: "code" },
  finalize_plan: { description: "Stop exploring.", schema: z.object({ thinking: z.string() }), draft: null },
} satisfies ToolSpecs;
const code = 'img = load_image("coins.png")\nprint("é", img.shape)  # a < b\n';

let server: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(turns: Turn[], protocol: "native" | "text") {
  server = await startScriptedModel({ name: "drafts.test", turns });
  const client = new ModelClient({ apiKey: null, baseUrl: server.url, byRole, protocolByRole: { planner: protocol } }, { maxRetries: 0, baseDelayMs: 5 });
  const drafts: ReplyDraft[] = [];
  const res = await client.callTool("planner", {
    messages: [{ role: "user", content: "How many coins?" }],
    tools,
    signal: new AbortController().signal,
    onDraft: (d) => drafts.push(d),
  });
  if (res.name !== "execute_python") throw new Error(`expected execute_python, got ${res.name}`);
  return { res, drafts };
}

describe("onDraft", () => {
  it("native calls: the draft grows, and its last view holds the call's thinking and code", async () => {
    const { res, drafts } = await run([{ model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Segment them.", code } }] }], "native");
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    const sizes = drafts.map((d) => d.toolInput.length);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(draftView(drafts.at(-1)!)).toEqual({ tool: "execute_python", thinking: res.args.thinking, code: res.args.code });
    expect(res.args.code).toBe(code);
  });

  it("the text protocol: the tagged reply's last view holds the same code as the parsed call", async () => {
    const text = `<thinking>Segment them.</thinking>\n<execute_python>\n${code}</execute_python>`;
    const { res, drafts } = await run([{ model: "planner", text }], "text");
    expect(res.protocol).toBe("text");
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    expect(draftView(drafts.at(-1)!)).toEqual({ tool: "execute_python", thinking: res.thinking, code: res.args.code });
  });

  it("a repaired reply starts the draft over with an empty one", async () => {
    const { res, drafts } = await run(
      [
        { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "first try" } }] },
        { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "second", code: "print(2)" } }] },
      ],
      "native",
    );
    expect(res.args.code).toBe("print(2)");
    const restart = drafts.findIndex((d) => d.toolInput === "" && d.text === "" && d.toolName === null);
    expect(restart).toBeGreaterThan(0);
    expect(draftView(drafts[restart - 1]!).thinking).toBe("first try");
    expect(drafts.slice(restart + 1).every((d) => !d.toolInput.includes("first try"))).toBe(true);
    expect(draftView(drafts.at(-1)!)).toMatchObject({ thinking: "second", code: "print(2)" });
  });
});
