/**
 * The doctor's probes of one model: small raw HTTP requests, so what the endpoint says is read
 * exactly (status and body), without the retries and repairs a real call would add.
 */
import sharp from "sharp";
import { z } from "zod";
import { refusesTools } from "@/lib/engines/llm/classify-error";
import { textProtocolInstructions } from "@/lib/engines/llm/tagged-calls";
import { parseTaggedReply } from "@/lib/engines/llm/text-protocol";
import type { Check, ModelProbe } from "@/lib/foundation/protocol/doctor";
import type { RoleNeeds } from "./role-needs";
import { networkReason } from "./network-reason";

export interface ProbeTarget {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Per request; a model loading into memory may take a while on first use. */
  timeoutMs: number;
}

const PROBE_TOOL = "probe_ok";
const PROBE_TOOLS = { [PROBE_TOOL]: { description: "Report that you can call tools.", schema: z.object({ ok: z.boolean() }) } };
const ASK_FOR_CALL = `Call ${PROBE_TOOL} with ok set to true.`;

const ModelsList = z.object({ data: z.array(z.object({ id: z.string() })) });
const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish(), tool_calls: z.array(z.object({ function: z.object({ name: z.string() }) })).nullish() }) })).min(1),
});

interface Answer {
  status: number;
  body: string;
  type: string;
}

async function send(target: ProbeTarget, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    // Marks a check, not a real call: the scripted model answers it without using a scenario turn
    // (scripted-model/probe-answer.ts); real endpoints ignore the header.
    headers: { "content-type": "application/json", "x-argus-doctor": "probe", ...(target.apiKey === null ? {} : { authorization: `Bearer ${target.apiKey}` }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(target.timeoutMs),
  });
  return { status: response.status, body: await response.text(), type: response.headers.get("content-type") ?? "" };
}

/** The provider's own message from an error body, short. */
function said(answer: Answer): string {
  try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: unknown } | string };
    const message = typeof parsed.error === "string" ? parsed.error : parsed.error?.message;
    if (typeof message === "string") return `${answer.status}: ${message.slice(0, 200)}`;
  } catch {
    // not JSON: fall through
  }
  return `${answer.status}: ${answer.body.slice(0, 200)}`;
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function messageOf(answer: Answer): { content: string; calls: string[] } | undefined {
  const parsed = Completion.safeParse(jsonOf(answer.body));
  if (!parsed.success) return undefined;
  const message = parsed.data.choices[0]!.message;
  return { content: message.content ?? "", calls: (message.tool_calls ?? []).map((c) => c.function.name) };
}

const wroteCall = (content: string) => parseTaggedReply(content, [PROBE_TOOL]).calls.some((c) => c.name === PROBE_TOOL);

async function probeTools(target: ProbeTarget): Promise<Pick<ModelProbe, "tools" | "toolsDetail">> {
  const native = await send(target, "/chat/completions", {
    model: target.model,
    messages: [{ role: "user", content: ASK_FOR_CALL }],
    tools: [{ type: "function", function: { name: PROBE_TOOL, description: PROBE_TOOLS[PROBE_TOOL].description, parameters: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } } }],
    tool_choice: "required",
  });
  const message = native.status === 200 ? messageOf(native) : undefined;
  if (message?.calls.includes(PROBE_TOOL)) return { tools: "native" };
  if (message !== undefined && wroteCall(message.content)) return { tools: "text", toolsDetail: "the model wrote its call in the text" };
  if (!refusesTools(native.body)) return { tools: "none", toolsDetail: message === undefined ? said(native) : "the model answered without calling the tool" };
  // Served without tool calling: does the model follow the text protocol instead?
  const text = await send(target, "/chat/completions", {
    model: target.model,
    messages: [
      { role: "system", content: textProtocolInstructions(PROBE_TOOLS) },
      { role: "user", content: ASK_FOR_CALL },
    ],
  });
  const reply = text.status === 200 ? messageOf(text) : undefined;
  if (reply !== undefined && wroteCall(reply.content)) return { tools: "text", toolsDetail: `tools were refused (${said(native)})` };
  return { tools: "none", toolsDetail: `tools were refused (${said(native)}) and the reply in text had no <${PROBE_TOOL}> tag` };
}

async function probeImages(target: ProbeTarget): Promise<{ images: Check; imagesDetail?: string }> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#d04020" } }).png().toBuffer();
  const answer = await send(target, "/chat/completions", {
    model: target.model,
    messages: [{ role: "user", content: [{ type: "text", text: "What colour is this picture? One word." }, { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } }] }],
  });
  if (answer.status === 200 && messageOf(answer) !== undefined) return { images: "yes" };
  if (/image|vision|multimodal|multi-modal/i.test(answer.body)) return { images: "no", imagesDetail: said(answer) };
  return { images: "unknown", imagesDetail: said(answer) };
}

async function probeStreaming(target: ProbeTarget): Promise<Check> {
  const answer = await send(target, "/chat/completions", { model: target.model, messages: [{ role: "user", content: "Say ok." }], stream: true });
  return answer.status === 200 && answer.type.includes("text/event-stream") && answer.body.includes("data:") && answer.body.includes("[DONE]") ? "yes" : "no";
}

/** `GET /models`: a finished probe when the endpoint is down, refuses the key or lacks the model; else whether it is listed. */
async function listing(target: ProbeTarget): Promise<{ done: ModelProbe } | { known: Check }> {
  let listed: Answer;
  try {
    listed = await send(target, "/models");
  } catch (error) {
    return { done: { reachable: false, unreachableReason: networkReason(error), known: "unknown", tools: "n/a", images: "n/a", streaming: "unknown" } };
  }
  if (listed.status === 401 || listed.status === 403) {
    return { done: { reachable: true, authFailed: true, known: "unknown", tools: "n/a", images: "n/a", streaming: "unknown" } };
  }
  const models = listed.status === 200 ? ModelsList.safeParse(jsonOf(listed.body)) : undefined;
  const ids = models?.success ? models.data.data.map((m) => m.id) : [];
  const known: Check = ids.length === 0 ? "unknown" : ids.includes(target.model) ? "yes" : "no";
  if (known === "no") return { done: { reachable: true, known, served: ids.slice(0, 12), tools: "n/a", images: "n/a", streaming: "unknown" } };
  return { known };
}

const ResponseOutput = z.object({ output: z.array(z.object({ type: z.string() })) });

/**
 * A model that speaks the Responses API's computer tool (the browser role with
 * ARGUS_BROWSER_API=responses) is asked through `POST /responses`, never Chat Completions, which
 * such a model does not serve: one small request with the computer tool and a picture answers
 * both "takes the computer tool" and "sees images".
 */
export async function probeResponsesModel(target: ProbeTarget): Promise<ModelProbe> {
  const listed = await listing(target);
  if ("done" in listed) return { ...listed.done, api: "responses" };
  const { known } = listed;
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#d04020" } }).png().toBuffer();
  let answer: Answer;
  try {
    answer = await send(target, "/responses", {
      model: target.model,
      input: [{ role: "user", content: [{ type: "input_text", text: "What colour is this picture? One word." }, { type: "input_image", image_url: `data:image/png;base64,${png.toString("base64")}` }] }],
      tools: [{ type: "computer_use_preview", display_width: 1024, display_height: 768, environment: "browser" }],
      truncation: "auto",
    });
  } catch (error) {
    return { reachable: false, unreachableReason: networkReason(error), known, tools: "n/a", images: "n/a", streaming: "n/a", api: "responses" };
  }
  if (answer.status === 200 && ResponseOutput.safeParse(jsonOf(answer.body)).success) return { reachable: true, known, tools: "native", images: "yes", streaming: "n/a", api: "responses" };
  if (answer.status === 401 || answer.status === 403) return { reachable: true, authFailed: true, known, tools: "n/a", images: "n/a", streaming: "n/a", api: "responses" };
  if (/image|vision|multimodal|multi-modal/i.test(answer.body) && answer.status !== 404) {
    return { reachable: true, known, tools: "native", images: "no", imagesDetail: said(answer), streaming: "n/a", api: "responses" };
  }
  return { reachable: true, known, tools: "none", toolsDetail: said(answer), images: "unknown", streaming: "n/a", api: "responses" };
}

export async function probeModel(target: ProbeTarget, needs: RoleNeeds): Promise<ModelProbe> {
  const listed = await listing(target);
  if ("done" in listed) return listed.done;
  const { known } = listed;
  try {
    const tools = needs.tools ? await probeTools(target) : { tools: "n/a" as const };
    const images = needs.images ? await probeImages(target) : { images: "n/a" as const };
    const streaming = await probeStreaming(target);
    return { reachable: true, known, ...tools, ...images, streaming };
  } catch (error) {
    return { reachable: false, unreachableReason: networkReason(error), known, tools: "n/a", images: "n/a", streaming: "unknown" };
  }
}
