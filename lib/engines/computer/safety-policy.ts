/**
 * Argus's own safety checks: the steps a person should approve before the
 * browser takes them (the seed asks after the fact; Argus asks before). Pure:
 * the move, what the page says is under the pointer or focused, and where the
 * run started, in; the checks to ask about, out. A page that could not be
 * read is treated as the risky case (an unknown field may be a password).
 */
import type { SafetyCheck } from "@/lib/foundation/protocol/browser-wire";
import type { BrowserCommand } from "./browser-command";
import { chordKeys } from "./keys";
import type { ElementFacts, PageProbe } from "./page-probe";

export type PolicyMove =
  | { kind: "click"; x: number; y: number }
  | { kind: "type"; text?: string }
  | { kind: "keypress"; keys: readonly string[] }
  | { kind: "goto"; url: string }
  | { kind: "other" };

function check(code: string, message: string): SafetyCheck {
  return { code, message, source: "policy" };
}

const IP_LIKE = /^(\d+\.){3}\d+$|:/;

/**
 * Names under which anyone may have a host: sites of their own, not one site. The country
 * codes (two letters: co.uk, com.au, github.io) are handled by their length.
 */
const SHARED_SUFFIXES = new Set([
  "appspot.com", "azurewebsites.net", "blogspot.com", "cloudfront.net", "firebaseapp.com", "herokuapp.com",
  "netlify.app", "pages.dev", "vercel.app", "web.app", "workers.dev", "amazonaws.com", "glitch.me",
]);

/**
 * The site a URL belongs to: host and port for addresses and single-label
 * hosts (two loopback labs are two sites), else the last two labels of the
 * host (shop.example.com and example.com are one site), or three under a
 * country code or a shared hosting name (shop.co.uk and evil.co.uk, or
 * alice.github.io and mallory.github.io, are two). A heuristic without the
 * public suffix list: where it is wrong it splits one site in two (asks
 * more), never joins two.
 */
export function siteOf(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return url.protocol;
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (IP_LIKE.test(host) || !host.includes(".")) return `${host}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
  const labels = host.split(".");
  const lastTwo = labels.slice(-2).join(".");
  const keep = labels.at(-1)!.length <= 2 || SHARED_SUFFIXES.has(lastTwo) ? 3 : 2;
  return labels.slice(-keep).join(".");
}

/** File types a link most likely downloads rather than shows (the server decides, so this is a guess that asks more). */
const DOWNLOAD_TYPES = /\.(csv|tsv|zip|gz|tgz|bz2|xz|7z|rar|tar|pdf|exe|msi|dmg|pkg|deb|rpm|apk|iso|img|bin|doc|docx|xls|xlsx|ppt|pptx|odt|ods|odp|epub|mp3|mp4|mov|avi|mkv|wav|flac)$/i;

/** A link that downloads: it says so (`download`), or its path names a file type browsers save. */
export function looksLikeDownload(href: string, hasDownloadAttribute: boolean): boolean {
  if (hasDownloadAttribute) return true;
  try {
    return DOWNLOAD_TYPES.test(new URL(href).pathname);
  } catch {
    return false;
  }
}

/**
 * The move a command makes, as the policy judges it. A drag ends with the button released
 * over its last point, which clicks whatever is there when it started there too: it is
 * judged as a click at that point.
 */
export function policyMove(c: BrowserCommand): PolicyMove {
  if (c.tool === "goto") return { kind: "goto", url: c.url };
  if (c.tool !== "computer") return { kind: "other" };
  const a = c.action;
  if (a.type === "click" || a.type === "double_click") return { kind: "click", x: a.x, y: a.y };
  if (a.type === "drag") return { kind: "click", x: a.path.at(-1)!.x, y: a.path.at(-1)!.y };
  if (a.type === "type") return { kind: "type", text: a.text };
  if (a.type === "keypress") return { kind: "keypress", keys: a.keys };
  return { kind: "other" };
}

/**
 * The keys a keypress really presses, as the browser will: "+ENTER", " enter " and "\n" are
 * all Enter. Keys the browser would refuse press nothing ([]).
 */
function pressedKeys(keys: readonly string[]): string[] {
  try {
    return chordKeys(keys).map((k) => (k === "\n" || k === "\r" ? "Enter" : k === " " ? "Space" : k));
  } catch {
    return [];
  }
}

/** What activating the focused element (Enter, or Space on a button) may do. */
function activationChecks(focus: ElementFacts | null | undefined, probe: PageProbe | null, key: "Enter" | "Space", startUrl: string): SafetyCheck[] {
  if (key === "Enter" && (probe === null || focus?.inForm)) return [check("form_submit", "Pressing Enter here may submit a form.")];
  if (!focus) return [];
  // Keys go to whatever has focus inside a frame Argus cannot read: a form's field or button, maybe.
  if (focus.frame) return [check("form_submit", `Pressing ${key} inside a frame Argus cannot read may submit a form.`)];
  if (focus.submits) return [check("form_submit", `Pressing ${key} on this button submits a form.`)];
  if (key !== "Enter" || !focus.href) return [];
  if (looksLikeDownload(focus.href, focus.download)) return [check("download", "Pressing Enter on this link downloads a file.")];
  if (leavesSite(focus.href, startUrl)) return [check("leaves_site", `Pressing Enter on this link leaves the site the task started on, for ${siteOf(focus.href)}.`)];
  return [];
}

/** What writing into the focused element may do: a password field, or a field Argus cannot see. */
function writingChecks(probe: PageProbe | null): SafetyCheck[] {
  if (!probe) return [check("unknown_field", "Argus could not see which field has focus; it may be a password field.")];
  if (probe.focus?.password) return [check("password_field", "This types into a password field.")];
  if (probe.focus?.frame) return [check("unknown_field", "The focused field is inside a frame Argus cannot read; it may be a password field.")];
  return [];
}

function leavesSite(target: string, startUrl: string): boolean {
  const to = siteOf(target);
  const from = siteOf(startUrl);
  return to !== null && from !== null && to !== from;
}

function unique(checks: SafetyCheck[]): SafetyCheck[] {
  return checks.filter((c, i) => checks.findIndex((d) => d.code === c.code) === i);
}

/** The checks Argus asks about before `move`; [] when it may go ahead. */
export function policyChecks(move: PolicyMove, probe: PageProbe | null, startUrl: string): SafetyCheck[] {
  switch (move.kind) {
    case "type": {
      // Typing presses Enter for a line break and Space for a space, as the keys would.
      const text = move.text ?? "";
      const checks = writingChecks(probe);
      if (/[\n\r]/.test(text)) checks.push(...activationChecks(probe?.focus, probe, "Enter", startUrl));
      else if (text.includes(" ") && probe?.focus?.submits) checks.push(...activationChecks(probe.focus, probe, "Space", startUrl));
      return unique(checks);
    }
    case "keypress": {
      const keys = pressedKeys(move.keys);
      const checks: SafetyCheck[] = [];
      // A character (or a paste) goes into the focused field, like typing.
      if (keys.some((k) => [...k].length === 1 || k === "Space")) checks.push(...writingChecks(probe));
      // Tab in the same chord moves the focus first: Enter or Space then acts on an element nobody looked at.
      if (keys.includes("Tab") && (keys.includes("Enter") || keys.includes("Space"))) {
        checks.push(check("form_submit", "Tab with Enter or Space activates the next element on the page, which Argus has not looked at; it may submit a form or follow a link."));
      } else if (keys.includes("Enter")) checks.push(...activationChecks(probe?.focus, probe, "Enter", startUrl));
      else if (keys.includes("Space")) checks.push(...activationChecks(probe?.focus, probe, "Space", startUrl));
      return unique(checks);
    }
    case "click": {
      if (!probe) return [];
      const at = probe.at;
      if (!at) return [];
      const checks: SafetyCheck[] = [];
      if (at.frame) checks.push(check("unknown_target", "This clicks inside a frame Argus cannot read; it may submit a form or follow a link."));
      if (at.submits) checks.push(check("form_submit", "This click submits a form."));
      if (at.href && looksLikeDownload(at.href, at.download)) checks.push(check("download", "This click downloads a file."));
      else if (at.href && leavesSite(at.href, startUrl)) checks.push(check("leaves_site", `This link leaves the site the task started on, for ${siteOf(at.href)}.`));
      return checks;
    }
    case "goto":
      return leavesSite(move.url, startUrl) ? [check("leaves_site", `This opens ${siteOf(move.url)}, outside the site the task started on.`)] : [];
    case "other":
      return [];
  }
}
