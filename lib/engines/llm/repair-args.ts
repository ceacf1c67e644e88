/**
 * A tool call's arguments as models really send them: a JSON object, but also a JSON string
 * holding that object (double-encoded), the object in a ```json fence, or JavaScript-ish JSON
 * with trailing commas and single-quoted strings. Read when the repair is unambiguous (it parses
 * to exactly one object); otherwise the error quotes the text where reading stopped, so the
 * correction the model gets shows what was wrong. Pure.
 */

export type ArgsRepair = "double_encoded" | "loose_json" | "fenced_json";

export type ReadArguments =
  | { ok: true; value: unknown; repairs: ArgsRepair[] }
  | { ok: false; error: string };

/** How much of the text around a JSON error is quoted back. */
const QUOTE_CHARS = 40;

/** `JSON.parse`'s message plus the text where it stopped, quoted. */
function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  const pos = at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : -1;
  if (pos < 0) return message;
  const from = Math.max(0, pos - QUOTE_CHARS);
  const near = text.slice(from, pos + QUOTE_CHARS / 2).replace(/\s+/g, " ");
  const lead = from > 0 ? "…" : "";
  return pos >= text.length ? `${message}; it ends with: ${lead}${near}` : `${message}, near: ${lead}${near}`;
}

/**
 * Trailing commas dropped and single-quoted strings made double-quoted, outside of
 * double-quoted strings. Undefined when nothing changed (so the text was not JavaScript-ish).
 */
export function looseToStrictJson(text: string): string | undefined {
  let out = "";
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      // Copy a double-quoted string as it is.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (ch === "'") {
      let j = i + 1;
      let body = "";
      while (j < text.length && text[j] !== "'") {
        if (text[j] === "\\" && text[j + 1] === "'") {
          body += "'";
          j += 2;
        } else if (text[j] === "\\") {
          body += text.slice(j, j + 2);
          j += 2;
        } else {
          body += text[j] === '"' ? '\\"' : text[j];
          j += 1;
        }
      }
      out += `"${body}"`;
      i = j;
      changed = true;
    } else if (ch === "," && /^\s*[}\]]/.test(text.slice(i + 1, i + 64))) {
      changed = true;
    } else {
      out += ch;
    }
  }
  return changed ? out : undefined;
}

/** A whole value wrapped in ```json … ``` loses the fence. */
function unfenceJson(text: string): string | undefined {
  const m = /^\s*```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```\s*$/.exec(text);
  return m ? m[1]! : undefined;
}

type Parsed = { ok: true; value: unknown; repairs: ArgsRepair[] } | { ok: false; error: string };

function parseLenient(text: string): Parsed {
  const repairs: ArgsRepair[] = [];
  const unfenced = unfenceJson(text);
  if (unfenced !== undefined) repairs.push("fenced_json");
  const source = unfenced ?? text;
  try {
    return { ok: true, value: JSON.parse(source) as unknown, repairs };
  } catch (error) {
    const strict = looseToStrictJson(source);
    if (strict !== undefined) {
      try {
        return { ok: true, value: JSON.parse(strict) as unknown, repairs: [...repairs, "loose_json"] };
      } catch {
        // The original text's error says more than the rewritten one's.
      }
    }
    return { ok: false, error: describeJsonError(source, error) };
  }
}

/** The arguments as a value, with the repairs it took; `""` means no arguments, as for the SDK. */
export function readArguments(raw: string): ReadArguments {
  if (raw.trim() === "") return { ok: true, value: {}, repairs: [] };
  const first = parseLenient(raw);
  if (!first.ok) return first;
  // A JSON string that itself holds an object or array: the model encoded its arguments twice.
  if (typeof first.value === "string" && /^\s*(?:```|[{[])/.test(first.value)) {
    const inner = parseLenient(first.value);
    if (!inner.ok) return { ok: false, error: `the arguments were a JSON string holding broken JSON (${inner.error})` };
    return { ok: true, value: inner.value, repairs: [...first.repairs, "double_encoded", ...inner.repairs] };
  }
  return first;
}
