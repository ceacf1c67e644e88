import { describe, expect, it } from "vitest";
import { EndpointModelList, MAX_LISTED_MODELS, modelIdsOf } from "./endpoint-models";

describe("modelIdsOf", () => {
  it("reads the ids of an OpenAI-style list: unique, sorted, printable", () => {
    expect(modelIdsOf({ object: "list", data: [{ id: "planner" }, { id: "coder" }, { id: "coder" }, { id: 7 }, { id: "bad\u0007name" }, { id: "" }] })).toEqual(["coder", "planner"]);
  });

  it("is null for anything that is not such a list, and caps a huge one", () => {
    expect(modelIdsOf({ models: [] })).toBeNull();
    expect(modelIdsOf("nope")).toBeNull();
    expect(modelIdsOf({ data: Array.from({ length: 900 }, (_, i) => ({ id: `m${String(i).padStart(3, "0")}` })) })).toHaveLength(MAX_LISTED_MODELS);
  });
});

describe("EndpointModelList", () => {
  it("asks the endpoint at most once a minute, and again after a failure", async () => {
    let t = 0;
    let asked = 0;
    let fail = false;
    const list = new EndpointModelList({ apiKey: "k", baseUrl: null }, async () => {
      asked += 1;
      if (fail) throw new Error("down");
      return ["a"];
    }, () => t);
    expect(await list.list()).toEqual(["a"]);
    t = 59_000;
    await list.list();
    expect(asked).toBe(1);
    t = 61_000;
    fail = true;
    await expect(list.list()).rejects.toThrow("down");
    fail = false;
    expect(await list.list()).toEqual(["a"]);
    expect(asked).toBe(3);
  });

  it("says what to set when no endpoint is configured", async () => {
    await expect(new EndpointModelList(null).list()).rejects.toThrow(/OPENAI_BASE_URL/);
    await expect(new EndpointModelList({ apiKey: null, baseUrl: null }).list()).rejects.toThrow(/OPENAI_BASE_URL/);
  });
});
