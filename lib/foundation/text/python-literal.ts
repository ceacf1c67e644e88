/**
 * Reads a Python literal (what `ast.literal_eval` accepts, as far as JSON can
 * hold it): strings, numbers, True/False/None, lists, tuples and dicts with
 * string keys. Old OpenHands event streams keep file-editor arguments as
 * Python source, `print(file_editor(**{...}))`; reading them must never run
 * code, so this is a parser, not an evaluator.
 *
 * Anything outside that subset (bytes, sets, complex numbers, non-string dict
 * keys, `\N{…}` escapes, f-strings, names, calls) is a `PythonLiteralError`.
 */

export type PythonLiteral = string | number | boolean | null | PythonLiteral[] | { [key: string]: PythonLiteral };

export class PythonLiteralError extends Error {}

/** Deep enough for any real argument dict, shallow enough that the stack never overflows. */
const MAX_DEPTH = 100;

// Sticky patterns, matched where the reader stands (no copying of the rest of the text).
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const STRING_PREFIX = /[A-Za-z]{0,2}/y;
const OCTAL_TAIL = /[0-7]{0,2}/y;
const RADIX_INT = /0[xX](?:_?[0-9A-Fa-f])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+/y;
const DECIMAL = /(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?/y;

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

class Reader {
  private pos = 0;
  constructor(private readonly src: string) {}

  fail(what: string): never {
    throw new PythonLiteralError(`${what} at offset ${this.pos}`);
  }

  skipSpace(): void {
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f") this.pos++;
      else if (c === "\\" && this.src[this.pos + 1] === "\n") this.pos += 2;
      else break;
    }
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.src.length;
  }

  private lookingAt(pattern: RegExp): string {
    pattern.lastIndex = this.pos;
    return pattern.exec(this.src)?.[0] ?? "";
  }

  private peek(): string {
    return this.src[this.pos] ?? "";
  }

  private eat(token: string): boolean {
    this.skipSpace();
    if (!this.src.startsWith(token, this.pos)) return false;
    this.pos += token.length;
    return true;
  }

  value(depth: number): PythonLiteral {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    this.skipSpace();
    const c = this.peek();
    if (c === "[") return this.sequence("]", depth);
    if (c === "(") return this.parenthesised(depth);
    if (c === "{") return this.dict(depth);
    if (c === "+" || c === "-") {
      this.pos++;
      const n = this.value(depth + 1);
      if (typeof n !== "number") this.fail("a sign before something that is not a number");
      return c === "-" ? -n : n;
    }
    if (/[0-9.]/.test(c)) return this.number();
    const word = this.lookingAt(NAME);
    const quote = this.src[this.pos + word.length];
    if (word.length <= 2 && (quote === "'" || quote === '"')) return this.strings();
    if (word === "True" || word === "False" || word === "None") {
      this.pos += word.length;
      return word === "True" ? true : word === "False" ? false : null;
    }
    return this.fail(word === "" ? "unexpected character" : `the name ${word} (only literals are read)`);
  }

  /** Adjacent string literals join, as in Python: 'a' "b" is 'ab'. */
  private strings(): string {
    let out = this.string();
    for (;;) {
      this.skipSpace();
      const prefix = this.lookingAt(STRING_PREFIX);
      const quote = this.src[this.pos + prefix.length];
      if (quote !== "'" && quote !== '"') return out;
      out += this.string();
    }
  }

  private string(): string {
    const prefix = this.lookingAt(STRING_PREFIX);
    const flags = prefix.toLowerCase();
    if (flags.includes("b")) this.fail("a bytes literal");
    if (flags.includes("f")) this.fail("an f-string");
    if (flags !== "" && flags !== "r" && flags !== "u") this.fail(`the string prefix ${prefix}`);
    const raw = flags.includes("r");
    this.pos += prefix.length;
    const q = this.peek();
    const triple = this.src.startsWith(q.repeat(3), this.pos);
    const close = triple ? q.repeat(3) : q;
    this.pos += close.length;
    let out = "";
    for (;;) {
      if (this.pos >= this.src.length) this.fail("an unterminated string");
      if (this.src.startsWith(close, this.pos)) {
        this.pos += close.length;
        return out;
      }
      const c = this.src[this.pos] as string;
      if (c === "\n" && !triple) this.fail("a line break inside a one-line string");
      if (c !== "\\") {
        out += c;
        this.pos++;
      } else if (raw) {
        // A raw string keeps the backslash, and the next character never ends it.
        out += this.src.slice(this.pos, this.pos + 2);
        this.pos += 2;
      } else {
        out += this.escape();
      }
    }
  }

  private escape(): string {
    const c = this.src[this.pos + 1] ?? "";
    this.pos += 2;
    const simple = Object.hasOwn(SIMPLE_ESCAPES, c) ? SIMPLE_ESCAPES[c] : undefined;
    if (simple !== undefined) return simple;
    if (c === "\n") return "";
    if (/[0-7]/.test(c)) {
      const digits = c + this.lookingAt(OCTAL_TAIL);
      this.pos += digits.length - 1;
      return String.fromCodePoint(parseInt(digits, 8));
    }
    const width = c === "x" ? 2 : c === "u" ? 4 : c === "U" ? 8 : 0;
    if (width === 0) {
      if (c === "N") this.fail("a \\N{...} escape");
      return `\\${c}`; // Python keeps an unknown escape as written.
    }
    const hex = this.src.slice(this.pos, this.pos + width);
    if (!new RegExp(`^[0-9A-Fa-f]{${width}}$`).test(hex)) this.fail(`a bad \\${c} escape`);
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) this.fail(`a bad \\${c} escape`);
    this.pos += width;
    return String.fromCodePoint(code);
  }

  private number(): number {
    const written = this.lookingAt(RADIX_INT) || this.lookingAt(DECIMAL);
    if (written === "") return this.fail("a malformed number");
    const text = written.replace(/_/g, "");
    this.pos += written.length;
    if (/^[jJ]/.test(this.peek())) this.fail("a complex number");
    if (/^[A-Za-z0-9_]/.test(this.peek())) this.fail("a malformed number");
    if (/^0[xXoObB]/.test(text)) return Number(text.toLowerCase());
    // Python refuses a decimal integer written with leading zeros (other than 0 itself).
    if (/^0[0-9]+$/.test(text) && /[1-9]/.test(text)) this.fail("an integer with leading zeros");
    return Number(text);
  }

  private items(end: string, depth: number, each: () => void): number {
    let count = 0;
    for (;;) {
      if (this.eat(end)) return count;
      each();
      count++;
      if (this.eat(end)) return count;
      if (!this.eat(",")) this.fail(`expected "," or "${end}"`);
    }
  }

  private sequence(end: string, depth: number): PythonLiteral[] {
    this.pos++;
    const out: PythonLiteral[] = [];
    this.items(end, depth, () => out.push(this.value(depth + 1)));
    return out;
  }

  /** `(x)` is x; `()` and `(x,)` are tuples, read as arrays. */
  private parenthesised(depth: number): PythonLiteral {
    const start = this.pos;
    this.pos++;
    if (this.eat(")")) return [];
    const first = this.value(depth + 1);
    if (this.eat(")")) return first;
    this.pos = start;
    return this.sequence(")", depth);
  }

  private dict(depth: number): { [key: string]: PythonLiteral } {
    this.pos++;
    const entries: [string, PythonLiteral][] = [];
    this.items("}", depth, () => {
      const key = this.value(depth + 1);
      if (!this.eat(":")) this.fail(entries.length === 0 ? "a set (only dicts are read)" : 'expected ":"');
      if (typeof key !== "string") this.fail("a dict key that is not a string");
      entries.push([key, this.value(depth + 1)]);
    });
    // fromEntries defines keys as own data properties, so "__proto__" is just a key.
    return Object.fromEntries(entries);
  }
}

/** Parses `src` as one Python literal, or throws PythonLiteralError saying what was not one. */
export function parsePythonLiteral(src: string): PythonLiteral {
  const reader = new Reader(src);
  const value = reader.value(0);
  if (!reader.atEnd()) reader.fail("text after the literal");
  return value;
}
