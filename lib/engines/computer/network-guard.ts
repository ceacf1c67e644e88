/**
 * The URL policy (url-policy.ts) with its one piece of I/O, name resolution:
 * what the request router and the egress proxy both ask before the browser
 * may fetch anything. Names are resolved to all their addresses, and every one
 * must pass, so a name with one public and one private address is refused.
 * This machine's own addresses are read afresh (host-addresses.ts) for each
 * judgement, so an address an interface gains is refused from then on.
 */
import { hostAddresses } from "./host-addresses";
import { HostResolver } from "./host-resolver";
import { classifyAddress, type OwnAddresses } from "../../foundation/net/ip-address";
import { judgeAddresses, judgeHost, judgeUrl, normaliseHost, unbracket, type Refusal, type UrlPolicy } from "../../foundation/net/url-policy";

export type Judgement = { kind: "allow" } | Refusal;
/** For a connection: the addresses judged, which are the ones to connect to. */
export type ConnectionJudgement = { kind: "allow"; addresses: string[] } | Refusal;

export class NetworkGuard {
  constructor(
    readonly policy: UrlPolicy,
    private readonly resolver: HostResolver = new HostResolver(),
    /** The addresses of this machine's interfaces, as canonicalAddress writes them. */
    private readonly ownAddresses: () => OwnAddresses = hostAddresses,
  ) {}

  /** May the browser load this URL? `topLevel`: as a page rather than a resource. */
  async judgeUrl(url: string, options: { topLevel: boolean }): Promise<Judgement> {
    const verdict = judgeUrl(this.policy, url, options, this.ownAddresses());
    if (verdict.kind !== "resolve") return verdict;
    const judged = await this.resolveAndJudge(verdict.host, verdict.port);
    return judged.kind === "allow" ? { kind: "allow" } : judged;
  }

  /** May the browser connect to host:port, and to which addresses? */
  async judgeConnection(rawHost: string, port: number): Promise<ConnectionJudgement> {
    const verdict = judgeHost(this.policy, rawHost, port, this.ownAddresses());
    if (verdict.kind === "refuse") return verdict;
    if (verdict.kind === "resolve") return this.resolveAndJudge(verdict.host, verdict.port);
    // Allowed without DNS: an IP literal is its own address; an allow-listed name still needs one.
    const host = normaliseHost(rawHost)!;
    if (classifyAddress(host) !== null) return { kind: "allow", addresses: [unbracket(host)] };
    const addresses = await this.resolver.resolve(host);
    if (addresses.length === 0) return judgeAddresses(host, port, addresses) as Refusal;
    return { kind: "allow", addresses };
  }

  private async resolveAndJudge(host: string, port: number): Promise<ConnectionJudgement> {
    const addresses = await this.resolver.resolve(unbracket(host));
    const verdict = judgeAddresses(host, port, addresses, this.ownAddresses());
    return verdict.kind === "refuse" ? verdict : { kind: "allow", addresses };
  }
}
