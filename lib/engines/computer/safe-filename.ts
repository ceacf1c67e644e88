/**
 * Names for downloaded files. The name a site suggests is hostile text: it
 * must not climb out of the download directory, hide as a dot file, carry
 * control or bidirectional characters, or be so long the file system refuses
 * it. Pure; the exclusive create that makes a name safe to use is in
 * download-file.ts.
 */

const MAX_STEM = 120;
const MAX_EXT = 16;
const FALLBACK = "download";
/** Controls, DEL, C1 controls, and the bidi overrides that make "gpj.exe" display as "exe.jpg". */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;
/** Characters other systems refuse in names, replaced so a file stays portable when downloaded again. */
const AWKWARD = /[<>:"|?*]/g;

function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || name.length - dot > MAX_EXT + 1) return { stem: name, ext: "" };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
}

const cut = (text: string, max: number) => [...text].slice(0, max).join("");

/** One safe file name from a suggested one: no separators, no leading dots, bounded, never empty. */
export function safeDownloadName(suggested: string): string {
  // The last component of anything path-like, on either kind of separator.
  const base = suggested.normalize("NFC").split(/[/\\]/).pop() ?? "";
  const cleaned = base
    .replace(/\s+/g, " ")
    .replace(INVISIBLE, "")
    .replace(AWKWARD, "_")
    .replace(/^[\s.]+/, "")
    .replace(/[\s.]+$/, "");
  if (cleaned === "") return FALLBACK;
  const { stem, ext } = splitExtension(cleaned);
  const shortStem = cut(stem, MAX_STEM).replace(/[\s.]+$/, "");
  return `${shortStem === "" ? FALLBACK : shortStem}${ext}`;
}

/** The names to try in turn: "report.csv", "report (1).csv", "report (2).csv", … */
export function* nameCandidates(name: string, max = 1000): Generator<string> {
  yield name;
  const { stem, ext } = splitExtension(name);
  for (let n = 1; n < max; n += 1) yield `${stem} (${n})${ext}`;
}
