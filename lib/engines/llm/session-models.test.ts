import { describe, expect, it } from "vitest";
import { ModelClient } from "./models";

describe("ModelClient.withModels", () => {
  const client = new ModelClient({ apiKey: null, baseUrl: "http://127.0.0.1:9/v1", byRole: { planner: "server-planner", coder: "server-coder" } });

  it("replaces the chosen roles' models and keeps the rest", () => {
    const chosen = client.withModels({ planner: "qwen3-vl" });
    expect(chosen.modelFor("planner")).toBe("qwen3-vl");
    expect(chosen.modelFor("coder")).toBe("server-coder");
    expect(chosen.baseUrl).toBe(client.baseUrl);
    // The server's client is untouched: another session's run keeps the server's models.
    expect(client.modelFor("planner")).toBe("server-planner");
  });

  it("is the same client when nothing is chosen", () => {
    expect(client.withModels({})).toBe(client);
    expect(client.withModels({ planner: "" })).toBe(client);
  });

  it("makes a role without a server model callable once one is chosen", () => {
    expect(client.status("vqa").ok).toBe(false);
    expect(client.withModels({ vqa: "llava" }).status("vqa").ok).toBe(true);
  });
});
