/**
 * The keyboard shortcut that takes focus to the card the run waits on (a
 * question, tool review or safety check). Without it, reaching a card's option
 * from the composer took dozens of Tab presses. Alt+Shift+A ("answer"): read
 * by physical key (`code`), so it works on any layout and an Option-modified
 * character on a Mac never reaches the text box.
 */
export const CARD_SHORTCUT = "Alt+Shift+A";

/** The parts of a KeyboardEvent the check reads (so it is testable without a DOM). */
export interface KeyPress {
  code: string;
  altKey: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

export function isCardShortcut(e: KeyPress): boolean {
  return e.code === "KeyA" && e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey;
}

/**
 * Where focus goes in a card: its first answer option (marked `data-card-option`),
 * else its first control that takes focus (a tool review's selected candidate tab).
 */
export const CARD_OPTION_SELECTOR = "[data-card-option]:not(:disabled)";
export const CARD_FOCUSABLE_SELECTOR = 'button:not(:disabled):not([tabindex="-1"]), input:not(:disabled), [tabindex="0"]';
