/**
 * CUA key names ("CTRL", "ENTER", "ARROWLEFT", "a") to Playwright key names,
 * checked all at once before anything is pressed: an unknown key is refused
 * by name, with no key left held down. Pure.
 */
import { badAction } from "./errors";

const NAMED: Record<string, string> = {};
function name(playwright: string, ...aliases: string[]) {
  for (const alias of [playwright, ...aliases]) NAMED[alias.toUpperCase()] = playwright;
}
name("Control", "CTRL");
name("Alt", "OPTION");
name("Shift");
name("Meta", "CMD", "COMMAND", "SUPER", "WIN", "WINDOWS");
name("Enter", "RETURN");
name("Escape", "ESC");
name("Tab");
name("Space", "SPACEBAR");
name("Backspace");
name("Delete", "DEL");
name("Insert", "INS");
name("Home");
name("End");
name("PageUp", "PGUP");
name("PageDown", "PGDN");
name("ArrowLeft", "LEFT");
name("ArrowRight", "RIGHT");
name("ArrowUp", "UP");
name("ArrowDown", "DOWN");
name("CapsLock");
for (let n = 1; n <= 12; n += 1) name(`F${n}`);

const MAX_CHORD = 8;

/** One key: a known name (any case) or a single character, kept as typed. */
export function playwrightKey(key: string): string | null {
  if ([...key].length === 1) return key;
  return NAMED[key.trim().toUpperCase()] ?? null;
}

/**
 * The Playwright keys of a chord, in pressing order. "CTRL+A" written as one
 * string is read as two keys, since models write it both ways.
 */
export function chordKeys(keys: readonly string[]): string[] {
  const split = keys.flatMap((key) => ([...key].length > 1 && key.includes("+") ? key.split("+").filter((k) => k !== "") : [key]));
  if (split.length === 0) throw badAction("keypress needs at least one key.", "keys");
  if (split.length > MAX_CHORD) throw badAction(`A chord of ${split.length} keys is too many to hold at once (at most ${MAX_CHORD}).`, "keys");
  const unknown = split.filter((key) => playwrightKey(key) === null);
  if (unknown.length > 0) {
    const shown = unknown.map((k) => JSON.stringify(k.slice(0, 40))).join(", ");
    throw badAction(
      `${shown} ${unknown.length === 1 ? "is not a key" : "are not keys"} the browser knows; nothing was pressed. ` +
        "Use names like CTRL, ALT, SHIFT, CMD, ENTER, ESC, TAB, SPACE, BACKSPACE, ARROWLEFT, PAGEDOWN, F5, or a single character.",
      "keys",
    );
  }
  return split.map((key) => playwrightKey(key)!);
}
