import type { LengthNote } from "@/lib/foundation/protocol/message-limit";

/**
 * The message's length near the limit ("19 400 / 20 000"), and past it why Send is off, in words.
 * Announced politely, so a screen reader hears it without losing its place.
 */
export function LengthCounter({ note, id }: { note: LengthNote; id: string }) {
  return (
    <p id={id} role="status" data-testid="composer-counter" className={`px-3.5 pb-1 text-xs ${note.over ? "text-destructive" : "text-muted-foreground"}`}>
      <span className="font-medium tabular-nums">{note.counter}</span>
      {note.reason && <span data-testid="composer-too-long"> · {note.reason}</span>}
    </p>
  );
}
