import { describe, expect, it } from "vitest";
import { effectiveBaseUrl, notConfiguredMessage, type ModelSettings } from "./endpoint";

const byRole = { conversation: "m", planner: "m", coder: "m", vqa: "m", judge: "m" };

describe("endpoint", () => {
  it("defaults to OpenAI when only a key is set, and trims a trailing slash", () => {
    expect(effectiveBaseUrl({ baseUrl: null })).toBe("https://api.openai.com/v1");
    expect(effectiveBaseUrl({ baseUrl: "http://localhost:11434/v1/" })).toBe("http://localhost:11434/v1");
  });

  it("is configured with a key or a local endpoint, and a model name", () => {
    expect(notConfiguredMessage({ apiKey: "k", baseUrl: null, byRole }, "planner")).toBeUndefined();
    expect(notConfiguredMessage({ apiKey: null, baseUrl: "http://localhost:11434/v1", byRole }, "planner")).toBeUndefined();
  });

  it("says which variables to set", () => {
    const none: ModelSettings = { apiKey: null, baseUrl: null, byRole: { ...byRole, vqa: null } };
    expect(notConfiguredMessage(none, "vqa")).toBe(
      "No model is configured for the vqa: set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for an OpenAI-compatible server (Ollama: http://localhost:11434/v1), and set ARGUS_MODEL (or ARGUS_MODEL_VQA) to the name of the model to use.",
    );
    expect(notConfiguredMessage({ ...none, apiKey: "k" }, "vqa")).toBe(
      "No model is configured for the vqa: set ARGUS_MODEL (or ARGUS_MODEL_VQA) to the name of the model to use.",
    );
  });
});
