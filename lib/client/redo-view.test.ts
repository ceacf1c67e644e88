import { describe, expect, it } from "vitest";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { ChatItem } from "@/lib/foundation/protocol/chat-item";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { foldSuperseded, redoOffers } from "./redo-view";

const msg = (seq: number, item: ChatItem, runId = "a"): StreamedMessage => ({ role: "user", content: "", item, seq, runId, ts: "" });
const user = (seq: number, text: string, runId = "a") => msg(seq, { type: "user", text, media: [] }, runId);
const reply = (seq: number, text: string, runId = "a") => msg(seq, { type: "agent_message", speaker: "conversation", text, media: [] }, runId);
const state = (runId: string, agentState: RunStateWire["agentState"]): RunStateWire => ({ runId, agentState, agent: "conversation", turn: 0, maxTurns: 10, tokens: { input: 0, output: 0 } });

describe("folding superseded turns", () => {
  it("keeps a Regenerate's earlier answer under its mark, and an Edit's earlier message and answer under its mark", () => {
    const messages = [
      user(1, "hi"),
      reply(2, "first"),
      msg(3, { type: "redo", kind: "regenerate", from: 1, text: "again" }, "b"),
      reply(4, "second", "b"),
      msg(5, { type: "redo", kind: "edit", from: 1, text: "edited" }, "c"),
      user(6, "hello", "c"),
      reply(7, "third", "c"),
    ];
    const { current, earlier } = foldSuperseded(messages);
    expect(current.map((m) => m.seq)).toEqual([5, 6, 7]);
    // The outer Edit holds everything it replaced, the inner Regenerate's mark included.
    expect(earlier.get(5)?.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(foldSuperseded(messages.slice(0, 4)).earlier.get(3)?.map((m) => m.seq)).toEqual([2]);
  });

  it("leaves a chat without marks as it is", () => {
    const messages = [user(1, "hi"), reply(2, "hello")];
    expect(foldSuperseded(messages).current).toEqual(messages);
  });
});

describe("what may be done again", () => {
  const chat = [user(1, "one"), reply(2, "a"), user(3, "two", "b"), reply(4, "b", "b")];

  it("after a finished run: edit any of the person's messages, regenerate the latest; nothing to continue", () => {
    const offers = redoOffers(chat, state("b", "finished"));
    expect([...offers.editable]).toEqual([1, 3]);
    expect(offers.regenerate).toBe(3);
    expect(offers.continueRun).toBeNull();
  });

  it("after a Stop: Continue the stopped run", () => {
    expect(redoOffers(chat, state("b", "stopped")).continueRun).toBe("b");
  });

  it("nothing while a run is going", () => {
    const offers = redoOffers(chat, state("b", "running"));
    expect(offers.editable.size).toBe(0);
    expect(offers.regenerate).toBeNull();
  });
});
