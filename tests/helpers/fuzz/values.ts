/** Hostile values: strings, JSON-ish values and ids that are not ids. */
import type { Rng } from "./rng";

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "\u0000\u0001\u0002\u001f\u007f",
  "\ud800", // lone high surrogate
  "\udfff", // lone low surrogate
  "\ud83d\udca5💥👨‍👩‍👧‍👦🏳️‍🌈",
  "\u202eevil\u202c",
  "\ufeff",
  "Zalgo: Z̷̢̛̤̦a̴̰͖l̸̙̈́g̵̙͗o̵̫̓",
  "名前テスト",
  "مرحبا",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "'; DROP TABLE sessions; --",
  "\" OR 1=1 --",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%00%2e%2e%2f",
  "${7*7}{{7*7}}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "null",
  "undefined",
  "NaN",
  "true",
  "0",
  "-1",
  "1e309",
  "\r\n\r\nHTTP/1.1 200 OK\r\n",
  "a\nb\rc\td",
];

export function randomString(r: Rng, maxLen = 64): string {
  switch (r.int(0, 6)) {
    case 0:
      return r.pick(NASTY_STRINGS);
    case 1: {
      // Random code points, surrogates and all.
      const n = r.int(0, maxLen);
      let s = "";
      for (let i = 0; i < n; i++) s += String.fromCharCode(r.chance(0.7) ? r.int(0x20, 0x7e) : r.int(0, 0xffff));
      return s;
    }
    case 2:
      return r.pick(NASTY_STRINGS) + r.pick(NASTY_STRINGS);
    case 3:
      return "x".repeat(r.pick([1, 119, 120, 121, 20_000, 20_001, 65_536]));
    case 4:
      return r.uuid();
    case 5:
      return String.fromCodePoint(...Array.from({ length: r.int(1, 12) }, () => r.int(0x1f300, 0x1faff)));
    default:
      return Array.from({ length: r.int(1, 12) }, () => r.pick([..."abcdefghijklmnopqrstuvwxyz0123456789-_ "])).join("");
  }
}

/** A random JSON-ish value: nulls, wrong types, nested arrays and objects, huge numbers. */
export function randomValue(r: Rng, depth = 0): unknown {
  const leaf = depth > 3 || r.chance(0.5);
  if (leaf) {
    return r.weighted<() => unknown>([
      [3, () => null],
      [2, () => r.chance(0.5)],
      [3, () => r.pick([0, -1, 1, 1.5, -0, 2 ** 53, -(2 ** 53) - 2, 1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, 20_000, 20_001])],
      [6, () => randomString(r)],
      [1, () => r.int(-1e9, 1e9)],
    ])();
  }
  if (r.chance(0.5)) return Array.from({ length: r.int(0, 5) }, () => randomValue(r, depth + 1));
  const obj: Record<string, unknown> = {};
  for (let i = r.int(0, 5); i > 0; i--) obj[r.chance(0.6) ? r.pick(["role", "content", "media", "title", "afterSeq", "__proto__", "constructor", "id", "token"]) : randomString(r, 16)] = randomValue(r, depth + 1);
  return obj;
}


/** Percent-encodes every byte of the string's UTF-8 that is not unreserved (lone surrogates become U+FFFD). */
export function pct(s: string): string {
  let out = "";
  for (const b of Buffer.from(s, "utf8")) out += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  return out;
}

/** Ids that are not ids: malformed, encoded, oversized. Some are not even valid percent-encoding. */
export function hostileId(r: Rng): string {
  return r.pick([
    "not-a-uuid",
    "00000000-0000-0000-0000-000000000000",
    pct(r.pick(NASTY_STRINGS) || "x"),
    pct(randomString(r, 40) || "y"),
    "x".repeat(r.pick([37, 1000, 4000])),
    "%E0%A4%A",
    "%ZZ",
    "%",
    "%FF",
    "%C0%AF",
    "%2F..%2F..%2Fetc%2Fpasswd",
    "%00",
    "null",
    "1",
    "-1",
    "%20",
  ]);
}
