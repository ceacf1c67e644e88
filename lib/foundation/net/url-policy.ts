/**
 * Where Argus's browser may go: the decision, apart from any I/O, so every rule
 * is unit-tested. Hosts are normalised by the WHATWG URL parser (the same rules
 * Chromium applies), which makes `http://2130706433/`, `http://0x7f.1/`,
 * `http://%31%32%37.0.0.1/` and `http://[::ffff:127.0.0.1]/` all read as
 * loopback, and IDN names compare in their punycode form.
 *
 * Order of the rules: the scheme; then ARGUS_BROWSER_BLOCK (a domain and its
 * subdomains, and it wins over everything); then ARGUS_BROWSER_ALLOW (exact host,
 * optionally host:port), which lifts only the address rule; then the address
 * rule: every IANA special-purpose address (special-addresses.ts: loopback,
 * private, link-local, documentation, reserved...) and every address of this
 * machine's own interfaces (`own`, from host-addresses.ts) is refused, for IP
 * literals at once and for names once resolved (`judgeAddresses`, fed by
 * host-resolver.ts).
 */
import { ADDRESS_KIND_WORDS, classifyAddress, type OwnAddresses } from "./ip-address";

export interface AllowRule {
  host: string;
  /** null: every port of the host. */
  port: number | null;
}

export interface UrlPolicy {
  /** Normalised domains (or IP literals) refused with their subdomains. */
  block: readonly string[];
  allow: readonly AllowRule[];
}

export type RefusalReason = "scheme" | "blocked" | "address" | "unresolved" | "malformed";

export interface Refusal {
  kind: "refuse";
  reason: RefusalReason;
  /** The host refused, when there is one (a scheme refusal has none). */
  host: string | null;
  /** A sentence for the person and the model. */
  message: string;
}

export type Verdict = { kind: "allow" } | Refusal | { kind: "resolve"; host: string; port: number };

const ALLOW: Verdict = { kind: "allow" };
const NETWORK_SCHEMES: Record<string, number> = { "http:": 80, "https:": 443, "ws:": 80, "wss:": 443 };

function refuse(reason: RefusalReason, host: string | null, message: string): Refusal {
  return { kind: "refuse", reason, host, message };
}

/** A host as Chromium would connect to it: lower case, punycode, IPv4 in dotted form, IPv6 in brackets, no trailing dot. */
export function normaliseHost(raw: string): string | null {
  const bare = raw.trim();
  if (bare === "" || /[/\\@?#\s]/.test(bare)) return null;
  const isBareV6 = !bare.startsWith("[") && bare.includes(":");
  let hostname: string;
  try {
    hostname = new URL(`http://${isBareV6 ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return null;
  }
  const host = hostname.replace(/\.+$/, "");
  return host === "" ? null : host;
}

/** What a person types: "example.com" means https://example.com, "localhost:3000" https://localhost:3000; a scheme is kept. */
export function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url) ? url : `https://${url}`;
}

/** The host without IPv6 brackets, for resolvers and sockets. */
export function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

function entries(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((e) => e.trim()).filter((e) => e !== "");
}

/** `ARGUS_BROWSER_BLOCK`: comma-separated domains; `*.x.com` and `.x.com` mean x.com. Throws naming a bad entry. */
export function parseBlockList(raw: string | undefined): string[] {
  return entries(raw).map((entry) => {
    const domain = entry.replace(/^\*?\./, "");
    const host = domain.includes(":") && !domain.startsWith("[") && domain.split(":").length === 2 ? null : normaliseHost(domain);
    if (host === null) throw new Error(`"${entry}" is not a domain: list bare domains such as ads.example.com (no scheme, path or port)`);
    return host;
  });
}

/** `ARGUS_BROWSER_ALLOW`: comma-separated hosts or host:port (IPv6 as [::1]:8080). Throws naming a bad entry. */
export function parseAllowList(raw: string | undefined): AllowRule[] {
  return entries(raw).map((entry) => {
    const bad = () => new Error(`"${entry}" is not a host or host:port, such as intranet.example:8080 or 127.0.0.1:4000`);
    let hostText = entry;
    let port: number | null = null;
    const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(entry);
    const withPort = /^([^:]+):(\d+)$/.exec(entry);
    if (bracketed) [hostText, port] = [bracketed[1]!, bracketed[2] === undefined ? null : Number(bracketed[2])];
    else if (withPort) [hostText, port] = [withPort[1]!, Number(withPort[2])];
    if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535)) throw bad();
    const host = normaliseHost(hostText);
    if (host === null) throw bad();
    return { host, port };
  });
}

function blockedBy(policy: UrlPolicy, host: string): string | null {
  return policy.block.find((rule) => host === rule || host.endsWith(`.${rule}`)) ?? null;
}

function allowed(policy: UrlPolicy, host: string, port: number): boolean {
  return policy.allow.some((rule) => rule.host === host && (rule.port === null || rule.port === port));
}

function allowHint(host: string, port: number): string {
  return `list ${host}:${port} in ARGUS_BROWSER_ALLOW to let the browser reach it`;
}

/** The rules that need no DNS, for a host and port about to be connected to (the egress proxy's CONNECT too). */
export function judgeHost(policy: UrlPolicy, rawHost: string, port: number, own?: OwnAddresses): Verdict {
  const host = normaliseHost(rawHost);
  if (host === null) return refuse("malformed", null, `"${rawHost.slice(0, 100)}" is not a host name the browser can visit.`);
  const rule = blockedBy(policy, host);
  if (rule !== null) {
    return refuse("blocked", host, rule === host ? `${host} is blocked by ARGUS_BROWSER_BLOCK.` : `${host} is blocked by ARGUS_BROWSER_BLOCK (${rule} and its subdomains).`);
  }
  if (allowed(policy, host, port)) return ALLOW;
  const kind = classifyAddress(host, own);
  if (kind === "public") return ALLOW;
  if (kind !== null) return refuse("address", host, `${host} is ${ADDRESS_KIND_WORDS[kind]}, which the browser may not reach; ${allowHint(host, port)}.`);
  return { kind: "resolve", host, port };
}

/** The address rule for a name once resolved: every address must be public, or the host is refused. */
export function judgeAddresses(host: string, port: number, addresses: readonly string[], own?: OwnAddresses): Verdict {
  if (addresses.length === 0) return refuse("unresolved", host, `${host} could not be found (its name does not resolve).`);
  for (const address of addresses) {
    const kind = classifyAddress(address, own);
    if (kind === null) return refuse("unresolved", host, `${host} resolved to something that is not an address.`);
    if (kind !== "public") {
      return refuse("address", host, `${host} resolves to ${address}, ${ADDRESS_KIND_WORDS[kind]}, which the browser may not reach; ${allowHint(host, port)}.`);
    }
  }
  return ALLOW;
}

/**
 * A URL the browser is asked to load. `topLevel` is a page navigation (goto, a
 * link, a redirect of the main frame): only http(s), about:blank and blob: may
 * be opened there. Subresources may also be data: and blob:.
 */
export function judgeUrl(policy: UrlPolicy, rawUrl: string, options: { topLevel: boolean }, own?: OwnAddresses): Verdict {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refuse("malformed", null, `"${rawUrl.slice(0, 200)}" is not a web address.`);
  }
  const scheme = url.protocol;
  const defaultPort = NETWORK_SCHEMES[scheme];
  if (defaultPort !== undefined) {
    if (options.topLevel && (scheme === "ws:" || scheme === "wss:")) return refuse("scheme", null, `${scheme} addresses can't be opened as a page.`);
    return judgeHost(policy, url.hostname, url.port === "" ? defaultPort : Number(url.port), own);
  }
  if (scheme === "about:") {
    return url.pathname === "blank" || url.pathname === "srcdoc" ? ALLOW : refuse("scheme", null, `${url.href} can't be opened in Argus's browser.`);
  }
  if (scheme === "blob:") return ALLOW;
  if (scheme === "data:" && !options.topLevel) return ALLOW;
  return refuse(
    "scheme",
    null,
    `${scheme} ${options.topLevel ? "pages" : "resources"} can't be opened in Argus's browser; only http and https pages can.`,
  );
}
