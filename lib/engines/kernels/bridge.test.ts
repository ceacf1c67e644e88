import { describe, expect, it } from "vitest";
import { answerBridge, BRIDGE_PREFIX, bridgeRequestId, builtinBridgeMethods, isBridgePrompt, transferAnswerOf } from "./bridge";

const ctx = {
  workspace: "/tmp",
  signal: new AbortController().signal,
  holdClock: <T>(work: Promise<T>) => work,
  readFile: () => Promise.reject(new Error("no files in these tests")),
};
const ask = (body: unknown) => BRIDGE_PREFIX + JSON.stringify(body);

describe("bridge", () => {
  it("answers a known method", async () => {
    const reply = JSON.parse(await answerBridge(ask({ id: "1", method: "ping", params: { text: "hi" } }), builtinBridgeMethods, ctx));
    expect(reply).toEqual({ id: "1", result: "hi" });
    expect(isBridgePrompt(ask({}))).toBe(true);
    expect(isBridgePrompt("Name? ")).toBe(false);
  });

  it("turns every failure into an error reply", async () => {
    const methods = { ...builtinBridgeMethods, boom: async () => Promise.reject(new Error("model unreachable")) };
    const unknown = JSON.parse(await answerBridge(ask({ id: "2", method: "nope" }), methods, ctx));
    expect(unknown.error.message).toMatch(/Unknown bridge method 'nope'/);
    const failing = JSON.parse(await answerBridge(ask({ id: "3", method: "boom" }), methods, ctx));
    expect(failing).toEqual({ id: "3", error: { message: "model unreachable" } });
    const garbage = JSON.parse(await answerBridge(`${BRIDGE_PREFIX}{not json`, methods, ctx));
    expect(garbage.error.message).toMatch(/not valid JSON/);
  });

  it("looks methods up among its own, never through Object.prototype", async () => {
    for (const method of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"]) {
      const reply = JSON.parse(await answerBridge(ask({ id: "4", method }), builtinBridgeMethods, ctx));
      expect(reply, method).toEqual({ id: "4", error: { message: `Unknown bridge method '${method}'.` } });
    }
  });

  it("tells a new call from the kernel's answer to a file request made during one", () => {
    expect(bridgeRequestId(ask({ id: "7", method: "vqa", params: {} }))).toBe("7");
    expect(bridgeRequestId(`${BRIDGE_PREFIX}{broken`)).toBeNull();
    expect(transferAnswerOf(ask({ id: "7", method: "vqa", params: {} }))).toBeNull();
    expect(transferAnswerOf(ask({ id: "7", transfer_answer: { result: { size: 3 } } }))).toEqual({ id: "7", answer: { result: { size: 3 } } });
    expect(transferAnswerOf(ask({ id: 7, transfer_answer: {} }))).toBeNull();
  });
});
