import { ArgusError } from "@/lib/foundation/errors";
import type { PostMessage } from "@/lib/foundation/protocol/api";
import { personMessage, redoMark } from "@/lib/foundation/protocol/event-builders";
import type { ArgusEvent, ArgusEventInput } from "@/lib/foundation/protocol/events";
import { fileUrl } from "@/lib/foundation/protocol/files";
import { redoText } from "@/lib/foundation/protocol/redo";
import type { EventLog } from "./event-log";
import { personMessages, requestOfRun, uploadIdsOf, whyNotContinuable, whyNotEditable, whyNotRegenerable } from "./redo-log";

/** How a run (or the next attempt of one) opens: where its events start and what its agents answer. */
export interface RunOpening {
  /** The run's first event this time: the person's message, or the redo mark. */
  firstSeq: number;
  /** The person's request the agents answer: its words and upload ids. */
  text: string;
  media: string[];
  /** Go on with the run's kept agents (a continue whose run this process still holds), rather than start them afresh. */
  continues: boolean;
}

/** What the chat says when a run is continued but its agents are gone (this server restarted since). */
export const CONTINUE_AFRESH_NOTE =
  "This run's agents could not be picked up where they stopped (Argus restarted since), so your message is being answered again from the start.";

function refuse(why: string | null): void {
  if (why !== null) throw new ArgusError("conflict:message", why);
}

/**
 * Writes the first events of a run and says how it opens: a new message is posted; a redo
 * (lib/foundation/protocol/redo.ts) is checked against the log and marked there instead. `keptRunId` is
 * the run whose agents this process still holds (a failed or stopped run), if any.
 */
export async function openRun(log: EventLog, sessionId: string, runId: string, body: PostMessage, keptRunId: string | null): Promise<RunOpening> {
  const append = async (event: ArgusEventInput): Promise<ArgusEvent> => (await log.append(sessionId, { ...event, runId })).event;
  const redo = body.redo;
  if (!redo) {
    const media = body.media ?? [];
    const first = await append(personMessage(body.content, media.map(fileUrl)));
    return { firstSeq: first.id!, text: body.content, media, continues: false };
  }
  const events = await log.eventsAfter(sessionId, 0);
  switch (redo.kind) {
    case "continue": {
      refuse(whyNotContinuable(events, runId));
      const request = requestOfRun(events, runId);
      if (keptRunId === runId) {
        const mark = await append(redoMark({ kind: "continue", from: null }, redoText({ kind: "continue", from: null })));
        return { firstSeq: mark.id!, text: request?.args.content ?? "", media: request ? uploadIdsOf(request) : [], continues: true };
      }
      if (!request) throw new ArgusError("conflict:message", "This run cannot be continued: its message is not in the chat any more.");
      // Started afresh from the same message: its partial steps are superseded like a Regenerate's.
      const mark = await append(redoMark({ kind: "regenerate", from: request.id! }, CONTINUE_AFRESH_NOTE));
      return { firstSeq: mark.id!, text: request.args.content, media: uploadIdsOf(request), continues: false };
    }
    case "regenerate": {
      refuse(whyNotRegenerable(events, redo.seq));
      const request = personMessages(events).at(-1)!;
      const mark = await append(redoMark({ kind: "regenerate", from: redo.seq }, redoText({ kind: "regenerate", from: redo.seq })));
      return { firstSeq: mark.id!, text: request.args.content, media: uploadIdsOf(request), continues: false };
    }
    case "edit": {
      refuse(whyNotEditable(events, redo.seq));
      const original = personMessages(events).find((m) => m.id === redo.seq)!;
      // The edit keeps the message's uploads unless it names its own.
      const media = body.media ?? uploadIdsOf(original);
      await append(redoMark({ kind: "edit", from: redo.seq }, redoText({ kind: "edit", from: redo.seq })));
      const first = await append(personMessage(body.content, media.map(fileUrl)));
      return { firstSeq: first.id!, text: body.content, media, continues: false };
    }
  }
}

/** The first line of the first question, up to the length a rename allows (the sidebar shows it whole on hover). */
export function titleFrom(content: string): string {
  const line = content.trim().split("\n")[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line || "Images";
}
