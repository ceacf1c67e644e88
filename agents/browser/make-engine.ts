/**
 * Which engine speaks to the browser model: Chat Completions function tools by default, the
 * Responses API's computer tool when ARGUS_BROWSER_API resolves to `responses` (config.browser.api).
 */
import type { BrowserApi } from "@/lib/foundation/config";
import { ChatBrowserEngine } from "./chat-engine";
import type { BrowserEngine, BrowserEngineInputs } from "./engine";
import { ResponsesEngine } from "./responses-engine";

export function browserEngineFactory(api: BrowserApi = "chat"): (inputs: BrowserEngineInputs) => BrowserEngine {
  return api === "responses" ? (inputs) => new ResponsesEngine(inputs) : (inputs) => new ChatBrowserEngine(inputs);
}
