/**
 * Reading string fields out of JSON that is still being written (a streamed tool call's
 * arguments): `{"thinking": "I will thr` gives thinking = "I will thr". Pure and total: any
 * input, however cut or broken, gives what could be read up to that point.
 *
 * Escapes are decoded as JSON decodes them. An escape cut off at the end (`\`, `\u00`) and a
 * lone high surrogate waiting for its pair are held back, so a person never sees half a
 * character that the next chunk would turn into something else.
 */

/** Keys whose string value may itself be the JSON arguments (Hermes, OpenAI wrappers). */
const NESTED_ARGUMENTS = new Set(["arguments", "parameters", "args", "input"]);
const MAX_DEPTH = 32;

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", '"': '"', "\\": "\\", "/": "/" };

interface Scanned {
  value: string;
  /** The closing quote was read. */
  closed: boolean;
}

class PartialJsonReader {
  private i = 0;

  constructor(
    private readonly src: string,
    private readonly out: Map<string, string>,
  ) {}

  read(): void {
    this.value(null, 0);
  }

  private get done(): boolean {
    return this.i >= this.src.length;
  }

  /** Stops reading: what follows is not JSON we understand. */
  private stop(): void {
    this.i = this.src.length;
  }

  private skipSpace(): void {
    while (this.i < this.src.length && /\s/.test(this.src[this.i]!)) this.i++;
  }

  private value(key: string | null, depth: number): void {
    this.skipSpace();
    if (this.done) return;
    const c = this.src[this.i];
    if (c === "{") return depth < MAX_DEPTH ? this.object(depth + 1) : this.stop();
    if (c === "[") return depth < MAX_DEPTH ? this.array(depth + 1) : this.stop();
    if (c === '"') {
      const s = this.string();
      if (key === null) return;
      if (!this.out.has(key)) this.out.set(key, s.value);
      // `"arguments": "{\"code\": …"`: the arguments were sent as a JSON string.
      if (NESTED_ARGUMENTS.has(key) && s.value.trimStart().startsWith("{") && depth < MAX_DEPTH) {
        new PartialJsonReader(s.value, this.out).read();
      }
      return;
    }
    // A number, true, false or null: nothing to show, just step over it.
    const start = this.i;
    while (this.i < this.src.length && !/[\s,\]}]/.test(this.src[this.i]!)) this.i++;
    if (this.i === start) this.stop();
  }

  private object(depth: number): void {
    this.i++;
    for (;;) {
      this.skipSpace();
      if (this.done) return;
      const c = this.src[this.i];
      if (c === "}") {
        this.i++;
        return;
      }
      if (c === ",") {
        this.i++;
        continue;
      }
      if (c !== '"') return this.stop();
      const key = this.string();
      if (!key.closed) return;
      this.skipSpace();
      if (this.done) return;
      if (this.src[this.i] !== ":") return this.stop();
      this.i++;
      this.value(key.value, depth);
    }
  }

  private array(depth: number): void {
    this.i++;
    for (;;) {
      this.skipSpace();
      if (this.done) return;
      const c = this.src[this.i];
      if (c === "]") {
        this.i++;
        return;
      }
      if (c === ",") {
        this.i++;
        continue;
      }
      // Strings in arrays belong to no field (instructions, options): not shown.
      const before = this.i;
      this.value(null, depth);
      if (this.i === before) return this.stop();
    }
  }

  /** A string starting at the current quote; copies runs between escapes in one slice. */
  private string(): Scanned {
    const src = this.src;
    this.i++;
    let value = "";
    const special = /["\\]/g;
    for (;;) {
      special.lastIndex = this.i;
      const m = special.exec(src);
      if (!m) {
        value += src.slice(this.i);
        this.i = src.length;
        return { value: withoutLoneHighSurrogate(value), closed: false };
      }
      value += src.slice(this.i, m.index);
      this.i = m.index;
      if (m[0] === '"') {
        this.i++;
        return { value, closed: true };
      }
      const kind = src[this.i + 1];
      if (kind === undefined) {
        this.i = src.length;
        return { value: withoutLoneHighSurrogate(value), closed: false };
      }
      if (kind === "u") {
        const hex = src.slice(this.i + 2, this.i + 6);
        if (hex.length < 4) {
          this.i = src.length;
          return { value: withoutLoneHighSurrogate(value), closed: false };
        }
        // Not hex: JSON.parse would reject it; show the text rather than guess.
        value += /^[0-9a-fA-F]{4}$/.test(hex) ? String.fromCharCode(parseInt(hex, 16)) : `\\u${hex}`;
        this.i += 6;
        continue;
      }
      value += ESCAPES[kind] ?? kind;
      this.i += 2;
    }
  }
}

function withoutLoneHighSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/**
 * Every string-valued key of `source` (JSON, possibly cut off anywhere) with its value so far,
 * at any depth; where a key appears twice the first wins. Keys inside an `arguments` string
 * (JSON in a string) are read too.
 */
export function partialJsonStrings(source: string): Map<string, string> {
  const out = new Map<string, string>();
  new PartialJsonReader(source, out).read();
  return out;
}
