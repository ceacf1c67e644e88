/** Which engine speaks to the browser model: Chat Completions function tools by default. */
import { ChatBrowserEngine } from "./chat-engine";
import type { BrowserEngine, BrowserEngineInputs } from "./engine";

export function browserEngineFactory(): (inputs: BrowserEngineInputs) => BrowserEngine {
  return (inputs) => new ChatBrowserEngine(inputs);
}
