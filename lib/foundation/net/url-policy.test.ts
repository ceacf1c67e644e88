import { describe, expect, it } from "vitest";
import { judgeAddresses, judgeHost, judgeUrl, normaliseHost, parseAllowList, parseBlockList, withScheme, type UrlPolicy } from "./url-policy";

const open: UrlPolicy = { block: [], allow: [] };
const policy = (block = "", allow = ""): UrlPolicy => ({ block: parseBlockList(block), allow: parseAllowList(allow) });
const page = (p: UrlPolicy, url: string) => judgeUrl(p, url, { topLevel: true });
const resource = (p: UrlPolicy, url: string) => judgeUrl(p, url, { topLevel: false });

describe("normaliseHost", () => {
  it.each([
    ["EXAMPLE.com.", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["2130706433", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["%31%32%37.0.0.1", "127.0.0.1"],
    ["::1", "[::1]"],
    ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]"],
  ])("%s → %s", (raw, host) => expect(normaliseHost(raw)).toBe(host));

  it("refuses what is not a host", () => {
    for (const bad of ["", "a/b", "user@host", "a b", "[::1", "exa mple.com", "x?y", "."]) expect(normaliseHost(bad), bad).toBeNull();
  });
});

describe("the lists", () => {
  it("parses block entries into bare domains", () => {
    expect(parseBlockList(" Ads.Example.com, *.tracker.net ,.evil.org,,bücher.de ")).toEqual(["ads.example.com", "tracker.net", "evil.org", "xn--bcher-kva.de"]);
    expect(parseBlockList(undefined)).toEqual([]);
    expect(() => parseBlockList("https://example.com/")).toThrow(/"https:\/\/example.com\/" is not a domain/);
    expect(() => parseBlockList("example.com:80")).toThrow(/not a domain/);
  });

  it("parses allow entries with and without ports", () => {
    expect(parseAllowList("127.0.0.1:4000, intranet.local,[::1]:8080,LOCALHOST:80")).toEqual([
      { host: "127.0.0.1", port: 4000 },
      { host: "intranet.local", port: null },
      { host: "[::1]", port: 8080 },
      { host: "localhost", port: 80 },
    ]);
    expect(() => parseAllowList("host:99999")).toThrow(/"host:99999" is not a host/);
    expect(() => parseAllowList("http://x")).toThrow(/not a host/);
  });
});

describe("judgeUrl: schemes", () => {
  it("opens http(s), about:blank and blob pages, and refuses file, chrome, data, view-source and javascript pages", () => {
    expect(page(open, "https://example.com/").kind).toBe("resolve");
    expect(page(open, "about:blank")).toEqual({ kind: "allow" });
    expect(page(open, "blob:https://example.com/8d1c")).toEqual({ kind: "allow" });
    for (const url of ["file:///etc/passwd", "chrome://settings", "data:text/html,<b>hi</b>", "view-source:https://example.com/", "javascript:alert(1)", "chrome-extension://abc/x", "ws://example.com/", "about:config"]) {
      const verdict = page(open, url);
      expect(verdict, url).toMatchObject({ kind: "refuse", reason: "scheme" });
    }
    expect(page(open, "file:///etc/passwd")).toMatchObject({ message: "file: pages can't be opened in Argus's browser; only http and https pages can." });
  });

  it("lets allowed pages use data: and blob: resources, and checks ws: ones like any host", () => {
    expect(resource(open, "data:image/png;base64,iVBORw0KGgo=")).toEqual({ kind: "allow" });
    expect(resource(open, "blob:http://shop.example/1234")).toEqual({ kind: "allow" });
    expect(resource(open, "ws://127.0.0.1:3000/socket.io/")).toMatchObject({ kind: "refuse", reason: "address" });
    expect(resource(open, "file:///etc/passwd")).toMatchObject({ kind: "refuse", reason: "scheme" });
  });

  it("refuses a string that is not a URL", () => {
    expect(page(open, "not a url")).toMatchObject({ kind: "refuse", reason: "malformed" });
  });
});

describe("judgeUrl: the address rule", () => {
  it.each([
    "http://127.0.0.1:3000/api/health",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://017700000001/",
    "http://127.1/",
    "http://%31%32%37.0.0.1/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://0.0.0.0:8888/",
    "http://0/",
    "http://10.0.0.1/",
    "http://172.20.1.1/",
    "http://192.168.1.1/",
    "http://[fd00::1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/",
    "https://[::]/",
  ])("refuses %s", (url) => {
    expect(page(open, url)).toMatchObject({ kind: "refuse", reason: "address" });
  });

  it("says what the address is and how to allow it", () => {
    expect(page(open, "http://0x7f.1:3000/")).toMatchObject({
      host: "127.0.0.1",
      message: "127.0.0.1 is a loopback address (this machine), which the browser may not reach; list 127.0.0.1:3000 in ARGUS_BROWSER_ALLOW to let the browser reach it.",
    });
  });

  it("lets public addresses through and sends names to be resolved with their port", () => {
    expect(page(open, "http://93.184.216.34/")).toEqual({ kind: "allow" });
    expect(page(open, "https://[2606:4700::1111]/")).toEqual({ kind: "allow" });
    expect(page(open, "https://Shop.Example.com./cart")).toEqual({ kind: "resolve", host: "shop.example.com", port: 443 });
    expect(page(open, "http://localhost:3000/")).toEqual({ kind: "resolve", host: "localhost", port: 3000 });
  });
});

describe("judgeUrl: ARGUS_BROWSER_ALLOW", () => {
  it("lifts the address rule for the host, on the listed port only", () => {
    const p = policy("", "127.0.0.1:4000,intranet.local,[::1]:8080");
    expect(page(p, "http://127.0.0.1:4000/lab")).toEqual({ kind: "allow" });
    expect(page(p, "http://2130706433:4000/lab")).toEqual({ kind: "allow" });
    expect(page(p, "http://127.0.0.1:3000/")).toMatchObject({ kind: "refuse", reason: "address" });
    expect(page(p, "http://intranet.local:8443/")).toEqual({ kind: "allow" });
    expect(page(p, "http://[::1]:8080/")).toEqual({ kind: "allow" });
    expect(page(p, "http://[::1]:8081/")).toMatchObject({ kind: "refuse" });
  });

  it("matches the default port of the scheme", () => {
    const p = policy("", "localhost:80");
    expect(page(p, "http://localhost/")).toEqual({ kind: "allow" });
    expect(page(p, "https://localhost/")).toMatchObject({ kind: "resolve" });
  });

  it("does not let a subdomain ride on an allowed host", () => {
    expect(page(policy("", "intranet.local"), "http://x.intranet.local/")).toMatchObject({ kind: "resolve" });
  });
});

describe("judgeUrl: ARGUS_BROWSER_BLOCK", () => {
  const p = policy("example.com, ads.tracker.net, bücher.de, 93.184.216.34", "example.com");

  it("blocks the domain and its subdomains, whatever the spelling", () => {
    expect(page(p, "https://example.com/")).toMatchObject({ kind: "refuse", reason: "blocked", message: "example.com is blocked by ARGUS_BROWSER_BLOCK." });
    expect(page(p, "https://WWW.Example.COM./x")).toMatchObject({
      reason: "blocked",
      message: "www.example.com is blocked by ARGUS_BROWSER_BLOCK (example.com and its subdomains).",
    });
    expect(resource(p, "https://a.b.ads.tracker.net/pixel.gif")).toMatchObject({ reason: "blocked" });
    expect(page(p, "https://xn--bcher-kva.de/")).toMatchObject({ reason: "blocked" });
    expect(page(p, "https://bücher.de/")).toMatchObject({ reason: "blocked" });
    expect(resource(p, "wss://example.com/live")).toMatchObject({ reason: "blocked" });
    expect(page(p, "http://93.184.216.34/")).toMatchObject({ reason: "blocked" });
  });

  it("leaves look-alikes and parents alone", () => {
    expect(page(p, "https://notexample.com/")).toMatchObject({ kind: "resolve" });
    expect(page(p, "https://example.com.evil.org/")).toMatchObject({ kind: "resolve" });
    expect(page(p, "https://tracker.net/")).toMatchObject({ kind: "resolve" });
  });

  it("wins over ARGUS_BROWSER_ALLOW", () => {
    expect(page(p, "https://example.com/")).toMatchObject({ kind: "refuse", reason: "blocked" });
  });
});

describe("judgeHost and judgeAddresses", () => {
  it("judges a CONNECT target like a URL's host", () => {
    expect(judgeHost(open, "0x7f.1", 443)).toMatchObject({ kind: "refuse", reason: "address" });
    expect(judgeHost(open, "[::1]", 443)).toMatchObject({ kind: "refuse", reason: "address" });
    expect(judgeHost(open, "example.com", 443)).toEqual({ kind: "resolve", host: "example.com", port: 443 });
    expect(judgeHost(open, "bad/host", 443)).toMatchObject({ kind: "refuse", reason: "malformed" });
  });

  it("refuses a name when any of its addresses is not public", () => {
    expect(judgeAddresses("shop.example", 443, ["93.184.216.34", "2606:2800::1"])).toEqual({ kind: "allow" });
    expect(judgeAddresses("localhost", 3000, ["127.0.0.1"])).toMatchObject({
      kind: "refuse",
      reason: "address",
      message: "localhost resolves to 127.0.0.1, a loopback address (this machine), which the browser may not reach; list localhost:3000 in ARGUS_BROWSER_ALLOW to let the browser reach it.",
    });
    expect(judgeAddresses("rebind.example", 80, ["93.184.216.34", "10.0.0.7"])).toMatchObject({ reason: "address" });
    expect(judgeAddresses("ghost.example", 80, [])).toMatchObject({ reason: "unresolved", message: "ghost.example could not be found (its name does not resolve)." });
  });
});

describe("withScheme", () => {
  it("adds https:// to a bare host and keeps any scheme", () => {
    expect(withScheme("example.com/shop")).toBe("https://example.com/shop");
    expect(withScheme("localhost:3000")).toBe("https://localhost:3000");
    expect(withScheme("http://example.com")).toBe("http://example.com");
    expect(withScheme("file:///etc/passwd")).toBe("file:///etc/passwd");
    expect(withScheme("view-source:https://x")).toBe("view-source:https://x");
    expect(withScheme("about:blank")).toBe("about:blank");
  });
});
