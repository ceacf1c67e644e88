/**
 * How long a message to Argus may be, said the same way by the composer (while typing) and by the
 * server (when it refuses one). The limit keeps one message from filling the models' context.
 */
export const MAX_MESSAGE_CHARS = 20_000;

/** Past this share of the limit the composer shows a counter, so the limit is no surprise. */
const NEAR_SHARE = 0.9;

/** "20 000": a thin space between thousands reads the same in every language. */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

/** The sentence a person reads when a message is too long (the server's refusal says the same). */
export function tooLongMessage(length: number | null): string {
  const over = length === null ? "" : ` This one has ${formatCount(length)}.`;
  return `A message can be at most ${formatCount(MAX_MESSAGE_CHARS)} characters.${over} Shorten it, or send it in parts.`;
}

export interface LengthNote {
  /** "18 500 / 20 000" */
  counter: string;
  /** Over the limit: sending is off and `reason` says why. */
  over: boolean;
  reason: string | null;
}

/** What the composer shows for a draft of `length` characters: nothing far from the limit. */
export function lengthNote(length: number): LengthNote | null {
  if (length < MAX_MESSAGE_CHARS * NEAR_SHARE) return null;
  const over = length > MAX_MESSAGE_CHARS;
  return {
    counter: `${formatCount(length)} / ${formatCount(MAX_MESSAGE_CHARS)}`,
    over,
    reason: over ? `${formatCount(length - MAX_MESSAGE_CHARS)} characters over the limit: shorten the message, or send it in parts.` : null,
  };
}
