/**
 * Argus's own safety checks: the steps a person should approve before the
 * browser takes them (the seed asks after the fact; Argus asks before). Pure:
 * the move, what the page says is under the pointer or focused, and where the
 * run started, in; the checks to ask about, out. A page that could not be
 * read is treated as the risky case (an unknown field may be a password).
 */
import type { SafetyCheck } from "@/lib/protocol/browser-wire";
import type { PageProbe } from "./page-probe";

export type PolicyMove =
  | { kind: "click"; x: number; y: number }
  | { kind: "type" }
  | { kind: "keypress"; keys: readonly string[] }
  | { kind: "goto"; url: string }
  | { kind: "other" };

function check(code: string, message: string): SafetyCheck {
  return { code, message, source: "policy" };
}

const IP_LIKE = /^(\d+\.){3}\d+$|:/;

/**
 * The site a URL belongs to: host and port for addresses and single-label
 * hosts (two loopback labs are two sites), else the last two labels of the
 * host (shop.example.com and example.com are one site). A heuristic: it does
 * not know public suffixes such as co.uk, which makes it ask more, not less.
 */
export function siteOf(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return url.protocol;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (IP_LIKE.test(host) || !host.includes(".")) return `${host}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
  return host.split(".").slice(-2).join(".");
}

function leavesSite(target: string, startUrl: string): boolean {
  const to = siteOf(target);
  const from = siteOf(startUrl);
  return to !== null && from !== null && to !== from;
}

/** The checks Argus asks about before `move`; [] when it may go ahead. */
export function policyChecks(move: PolicyMove, probe: PageProbe | null, startUrl: string): SafetyCheck[] {
  switch (move.kind) {
    case "type": {
      if (!probe) return [check("unknown_field", "Argus could not see which field has focus; it may be a password field.")];
      if (probe.focus?.password) return [check("password_field", "This types into a password field.")];
      return [];
    }
    case "keypress": {
      const enter = move.keys.some((k) => /^(enter|return)$/i.test(k));
      if (enter && (probe === null || probe.focus?.inForm)) return [check("form_submit", "Pressing Enter here may submit a form.")];
      return [];
    }
    case "click": {
      if (!probe) return [];
      const at = probe.at;
      if (!at) return [];
      const checks: SafetyCheck[] = [];
      if (at.submits) checks.push(check("form_submit", "This click submits a form."));
      if (at.href && at.download) checks.push(check("download", "This click downloads a file."));
      else if (at.href && leavesSite(at.href, startUrl)) checks.push(check("leaves_site", `This link leaves the site the task started on, for ${siteOf(at.href)}.`));
      return checks;
    }
    case "goto":
      return leavesSite(move.url, startUrl) ? [check("leaves_site", `This opens ${siteOf(move.url)}, outside the site the task started on.`)] : [];
    case "other":
      return [];
  }
}
