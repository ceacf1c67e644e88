/** The run manager's vocabulary: what it is built from, and a run it is executing (run-manager.ts). */
import type { RunAgents } from "@/agents/types";
import type { Db } from "@/lib/engines/db/database";
import type { DiskSpace } from "@/lib/engines/db/disk-space";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import type { InteractionKind } from "@/lib/foundation/protocol/interaction-choice";
import type { RunLimits } from "@/lib/foundation/protocol/state";
import type { ControllerOptions, RunServices } from "./controller";

/** A run this process executes (one attempt of it: a continue makes a new one under the same run id). */
export interface ActiveRun {
  runId: string;
  abort: AbortController;
  /** Set while the run waits for the person's answer to interaction `seq` (a question, tool review or safety check). */
  waiting: { seq: number; kind: InteractionKind; resolve: (answer: ArgusEvent) => void; reject: (e: Error) => void } | null;
  /** Another instance took the run over: it stops here without writing another event. */
  abandoned?: boolean;
}

export interface RunSettings {
  limits: RunLimits;
}

/** The run being started, as the agents need to know it. */
export interface RunStart {
  sessionId: string;
  events: readonly ArgusEvent[];
  text: string;
  media: string[];
}

/** What the run manager is built from, in the composition root's order. */
export interface RunManagerDeps extends RunServices {
  db: Db;
  disk: Pick<DiskSpace, "assertRoom">;
  /** The agents of a run being started (see agents/registry.ts). */
  agents: (run: RunStart) => Promise<RunAgents>;
}

/** The controller's options for one attempt of a run: its signal, and waiting on the person's answers in it. */
export function attemptOptions(
  sessionId: string,
  run: ActiveRun,
  o: Pick<ControllerOptions, "limits" | "ask" | "closing">,
): Omit<ControllerOptions, "agents"> {
  return {
    sessionId,
    runId: run.runId,
    signal: run.abort.signal,
    ...o,
    waitForAnswer: (seq, kind) =>
      new Promise<ArgusEvent>((resolve, reject) => {
        if (run.abort.signal.aborted) return reject(new Error("cancelled"));
        run.waiting = { seq, kind, resolve, reject };
      }),
  };
}
