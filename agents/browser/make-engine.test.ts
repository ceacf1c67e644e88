import { describe, expect, it } from "vitest";
import { ChatBrowserEngine } from "./chat-engine";
import { browserEngineFactory } from "./make-engine";
import { ResponsesEngine } from "./responses-engine";

const inputs = { task: "t", startUrl: "http://lab.test/", screen: [800, 600] as const };

describe("browserEngineFactory", () => {
  it("speaks Chat Completions unless config.browser.api resolved to responses", () => {
    expect(browserEngineFactory()(inputs)).toBeInstanceOf(ChatBrowserEngine);
    expect(browserEngineFactory("chat")(inputs)).toBeInstanceOf(ChatBrowserEngine);
    expect(browserEngineFactory("responses")(inputs)).toBeInstanceOf(ResponsesEngine);
  });
});
