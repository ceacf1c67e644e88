import { describe, expect, it } from "vitest";
import { BRIDGE_PREFIX } from "./bridge";
import { BridgeFileRequests } from "./bridge-file-requests";

const prompt = (body: unknown) => BRIDGE_PREFIX + JSON.stringify(body);

describe("BridgeFileRequests", () => {
  it("answers each input request once: file steps go to the latest, the result to the last", async () => {
    const sent: { value: string; header: unknown }[] = [];
    const requests = new BridgeFileRequests((value, header) => sent.push({ value, header }), () => true, new AbortController().signal);
    const call = prompt({ id: "r1", method: "vqa", params: {} });
    expect(requests.route(call, "h1")).toBe(false);
    const exchange = requests.forCall(call, "h1");

    const stat = exchange.transfer("stat", { path: "a.png" });
    expect(sent).toEqual([{ value: JSON.stringify({ id: "r1", transfer: { op: "stat", args: { path: "a.png" } } }), header: "h1" }]);
    expect(requests.route(prompt({ id: "r1", transfer_answer: { result: { size: 3 } } }), "h2")).toBe(true);
    await expect(stat).resolves.toEqual({ size: 3 });

    const read = exchange.transfer("read", { path: "a.png" });
    expect(sent[1]!.header).toBe("h2");
    requests.route(prompt({ id: "r1", transfer_answer: { error: "no file 'a.png' in the workspace" } }), "h3");
    await expect(read).rejects.toThrow(/refused the file transfer: no file 'a.png'/);
    expect(exchange.replyTo()).toBe("h3");
  });

  it("gives up when the cell ends while a step waits", async () => {
    const ended = new AbortController();
    const requests = new BridgeFileRequests(() => undefined, () => true, ended.signal);
    const waiting = requests.forCall(prompt({ id: "r2", method: "vqa" }), "h").transfer("stat", {});
    ended.abort();
    await expect(waiting).rejects.toThrow(/cell ended before its file could be read/);
    await expect(requests.forCall(prompt({ id: "r3", method: "vqa" }), "h").transfer("stat", {})).rejects.toThrow(/cell ended/);
  });
});
