/**
 * From what the probes saw to a verdict per role and one sentence per problem saying what to do.
 * Pure: every wording is unit-tested.
 */
import type { ModelRole } from "@/lib/foundation/config";
import { modelEnvVar } from "@/lib/engines/llm/endpoint";
import type { ModelHealth, ModelProbe } from "@/lib/foundation/protocol/doctor";
import { ROLE_NEEDS } from "./role-needs";

export interface Judged {
  verdict: ModelHealth;
  /** Sentences for the person, each with the fix. */
  fixes: string[];
}

const VISION_MODELS = "qwen2.5-vl, llava, gemma3 or gpt-4o";

/** Local servers people run, by their usual port, for a more useful "start it" hint. */
function startHint(baseUrl: string): string {
  if (/:11434\b/.test(baseUrl)) return "start Ollama (`ollama serve`) or fix the URL";
  if (/:1234\b/.test(baseUrl)) return "start LM Studio's server (Developer tab) or fix the URL";
  if (/:8000\b/.test(baseUrl)) return "start vLLM (`vllm serve <model>`) or fix the URL";
  return "start the server or fix the URL";
}

export function judgeRole(role: ModelRole, model: string | null, probe: ModelProbe | null, baseUrl: string): Judged {
  const env = `${modelEnvVar(role)}=${model ?? ""}`;
  if (model === null || probe === null) {
    return { verdict: "down", fixes: [`No model is set for the ${role}: set ARGUS_MODEL or ${modelEnvVar(role)}.`] };
  }
  if (!probe.reachable) {
    return { verdict: "down", fixes: [`Nothing answers at OPENAI_BASE_URL=${baseUrl} (${probe.unreachableReason ?? "no answer"}): ${startHint(baseUrl)}.`] };
  }
  if (probe.authFailed) {
    return { verdict: "down", fixes: [`The endpoint at ${baseUrl} refused the API key: check OPENAI_API_KEY.`] };
  }
  if (probe.known === "no") {
    const served = probe.served?.length ? `; it serves: ${probe.served.join(", ")}` : "";
    return { verdict: "down", fixes: [`${model} is not served at ${baseUrl}${served}. Set ${modelEnvVar(role)} to one of those (or pull the model).`] };
  }
  const needs = ROLE_NEEDS[role];
  const fixes: string[] = [];
  let verdict: ModelHealth = "ok";
  if (probe.api === "responses" && probe.tools === "none") {
    verdict = "down";
    fixes.push(`${env} did not take the Responses API's computer tool (${probe.toolsDetail ?? "no answer"}): use OpenAI's computer-use-preview, or set ARGUS_BROWSER_API=chat to browse over Chat Completions.`);
  } else if (needs.tools && probe.tools === "none") {
    verdict = "down";
    fixes.push(`${env} neither makes tool calls nor follows Argus's text protocol (${probe.toolsDetail ?? "no call"}): use a model that follows instructions, such as qwen2.5 or llama3.1.`);
  } else if (needs.tools && probe.tools === "text") {
    verdict = "degraded";
    const role_ = role.toUpperCase();
    fixes.push(`${env} answers in text, not tool calls (${probe.toolsDetail ?? "text"}): Argus uses its text protocol for it (ARGUS_TOOL_PROTOCOL_${role_}=text, or leave it on auto).`);
  }
  if (needs.images && probe.images === "no") {
    verdict = "down";
    fixes.push(`${env} does not accept images (${probe.imagesDetail ?? "refused"}): use a vision model such as ${VISION_MODELS}.`);
  } else if (needs.images && probe.images === "unknown" && verdict === "ok") {
    verdict = "degraded";
    fixes.push(`Could not tell whether ${env} accepts images (${probe.imagesDetail ?? "unclear answer"}).`);
  }
  if (probe.streaming === "no") {
    verdict = "down";
    fixes.push(`The endpoint does not stream replies for ${model}, and Argus streams every call: check the server supports \`stream: true\`.`);
  }
  return { verdict, fixes };
}
