import { describe, expect, it } from "vitest";
import { personMessage } from "@/lib/foundation/protocol/event-builders";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { attemptOptions, type ActiveRun } from "./active-run";
import { takeEarlyAnswer, waitFromTheStart } from "./resume-waiting";
import { fromDict } from "./serialization";

const answer = (cause: number): ArgusEvent => ({ ...fromDict(personMessage("yes", [], { runId: "r", cause })), id: cause + 1 });
const options = (run: ActiveRun) => attemptOptions("s", run, { limits: { maxTurns: 1, maxTokens: 1, maxWallClockMs: 1 } as never, ask: async () => ({ text: "", choice: null }), closing: () => false });

describe("a resumed run waiting for the person's answer from the start", () => {
  it("takes an answer before the controller waits, and hands it over once when it does", async () => {
    const run: ActiveRun = { runId: "r", abort: new AbortController(), waiting: null };
    waitFromTheStart(run, { seq: 7, kind: "question" });
    expect(run.waiting?.seq).toBe(7);
    run.waiting!.resolve(answer(7));
    await expect(options(run).waitForAnswer(7, "question")).resolves.toMatchObject({ cause: 7 });
    // Once: the next question waits for its own answer.
    expect(takeEarlyAnswer(run, 7)).toBeNull();
  });

  it("keeps an early answer to another question from answering this one, and a stop still stops", async () => {
    const run: ActiveRun = { runId: "r", abort: new AbortController(), waiting: null };
    waitFromTheStart(run, { seq: 7, kind: "question" });
    run.waiting!.resolve(answer(7));
    expect(takeEarlyAnswer(run, 9)).toBeNull();
    const waiting = options(run).waitForAnswer(9, "question");
    expect(run.waiting?.seq).toBe(9);
    run.abort.abort();
    run.waiting!.reject(new Error("cancelled"));
    await expect(waiting).rejects.toThrow(/cancelled/);
  });
});
