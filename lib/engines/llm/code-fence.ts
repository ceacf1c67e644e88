/**
 * Code a model wrapped in a markdown fence out of habit (```python … ```), as the value of an
 * argument that should hold bare code. Run as it is, the fence is a SyntaxError at line 1 and
 * a wasted auto-fix turn, and a model told of the error often sends the same fence again. Pure.
 *
 * Safe because a value whose last line closes a fence is never valid Python: a backtick is not
 * Python outside a string or comment, and the value ends there. So only such values are
 * touched; code that merely holds backticks inside strings is left alone.
 */

/** Argument names whose value is code (execute_python, write_code, fix_code, write_test, submit_plan). */
export const CODE_FIELDS: ReadonlySet<string> = new Set(["code", "test"]);

/** ``` with an optional language: ```python, ```py, ```Python3, ```ipython. */
const OPEN_LINE = /^[ \t]*```[\w+.-]*[ \t]*$/;
/** A sentence a model writes before its block ("Here is the code:"), not a line of code. */
const PROSE_LINE = /^[ \t]*(?:[*_#>]+[ \t]*)?[A-Z][^=;{}[\]]*$/;
const MAX_PROSE_LINES = 3;

/**
 * The code inside `value` when it is one fenced block (with or without a language, with
 * whitespace around it or up to three lines of prose before it); undefined when it is not.
 */
export function unwrapCodeFence(value: string): string | undefined {
  const lines = value.replace(/\s+$/, "").split(/\r?\n/);
  if (lines.length < 2) return undefined;
  const last = lines[lines.length - 1]!;
  if (!/```[ \t]*$/.test(last)) return undefined;
  // The closing fence alone on its line, or right after the last line of code.
  const closeAlone = /^[ \t]*```[ \t]*$/.test(last);
  const head = closeAlone ? lines.slice(0, -1) : [...lines.slice(0, -1), last.replace(/[ \t]*```[ \t]*$/, "")];
  const opens = head.flatMap((line, i) => (OPEN_LINE.test(line) ? [i] : []));
  if (opens.length !== 1) return undefined;
  const open = opens[0]!;
  const before = head.slice(0, open).filter((line) => line.trim() !== "");
  if (before.length > MAX_PROSE_LINES || !before.every((line) => PROSE_LINE.test(line))) return undefined;
  const code = head.slice(open + 1);
  return code.join("\n");
}
