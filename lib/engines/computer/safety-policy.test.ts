import { describe, expect, it } from "vitest";
import type { ElementFacts, PageProbe } from "./page-probe";
import { readProbe } from "./page-probe";
import { policyChecks, siteOf } from "./safety-policy";

const plain: ElementFacts = { tag: "div", type: "", href: "", download: false, inForm: false, submits: false, password: false, frame: false };
const probe = (at: Partial<ElementFacts> | null, focus: Partial<ElementFacts> | null = null): PageProbe => ({
  at: at && { ...plain, ...at },
  focus: focus && { ...plain, ...focus },
});
const start = "http://127.0.0.1:4000/index.html";
const codes = (checks: { code: string }[]) => checks.map((c) => c.code);

describe("siteOf", () => {
  it("keeps port for addresses and single-label hosts, the last two labels otherwise", () => {
    expect(siteOf("http://127.0.0.1:4000/x")).toBe("127.0.0.1:4000");
    expect(siteOf("http://localhost/x")).toBe("localhost:80");
    expect(siteOf("https://shop.example.com/a")).toBe("example.com");
    expect(siteOf("https://[::1]:8080/")).toBe("::1:8080");
    expect(siteOf("not a url")).toBeNull();
  });

  it("never joins two sites that share a public suffix (attack: start on one, leave for another unasked)", () => {
    for (const [from, to] of [
      ["https://shop.co.uk/", "https://evil.co.uk/"],
      ["https://alice.github.io/", "https://mallory.github.io/"],
      ["https://shop.com.au/", "https://evil.com.au/"],
      ["https://alice.herokuapp.com/", "https://mallory.herokuapp.com/"],
    ] as const) {
      expect(codes(policyChecks({ kind: "goto", url: to }, null, from)), `${from} → ${to}`).toEqual(["leaves_site"]);
    }
    expect(policyChecks({ kind: "goto", url: "https://www.shop.co.uk/cart" }, null, "https://shop.co.uk/")).toEqual([]);
  });
});

describe("policyChecks", () => {
  it("asks before typing into a password field, and when the focus cannot be read", () => {
    expect(codes(policyChecks({ kind: "type" }, probe(null, { tag: "input", type: "password", password: true }), start))).toEqual(["password_field"]);
    expect(codes(policyChecks({ kind: "type" }, null, start))).toEqual(["unknown_field"]);
    expect(policyChecks({ kind: "type" }, probe(null, { tag: "input", type: "text" }), start)).toEqual([]);
    expect(codes(policyChecks({ kind: "type" }, probe(null, { tag: "iframe", frame: true }), start))).toEqual(["unknown_field"]);
  });

  it("asks before a click that submits a form, downloads, or leaves the site", () => {
    expect(codes(policyChecks({ kind: "click", x: 1, y: 1 }, probe({ tag: "button", type: "submit", submits: true, inForm: true }), start))).toEqual(["form_submit"]);
    expect(codes(policyChecks({ kind: "click", x: 1, y: 1 }, probe({ tag: "a", href: "http://127.0.0.1:4000/p.csv", download: true }), start))).toEqual(["download"]);
    expect(codes(policyChecks({ kind: "click", x: 1, y: 1 }, probe({ tag: "a", href: "http://127.0.0.1:4000/download/price-list.csv" }), start))).toEqual(["download"]);
    expect(codes(policyChecks({ kind: "click", x: 1, y: 1 }, probe({ tag: "a", href: "https://elsewhere.example/" }), start))).toEqual(["leaves_site"]);
    expect(policyChecks({ kind: "click", x: 1, y: 1 }, probe({ tag: "a", href: "http://127.0.0.1:4000/form.html" }), start)).toEqual([]);
    expect(policyChecks({ kind: "click", x: 1, y: 1 }, probe(null), start)).toEqual([]);
  });

  it("asks before Enter in a form and before going to another site", () => {
    expect(codes(policyChecks({ kind: "keypress", keys: ["Enter"] }, probe(null, { tag: "input", inForm: true }), start))).toEqual(["form_submit"]);
    expect(policyChecks({ kind: "keypress", keys: ["CTRL", "A"] }, probe(null, { tag: "input", inForm: true }), start)).toEqual([]);
    expect(codes(policyChecks({ kind: "goto", url: "https://example.org/" }, null, start))).toEqual(["leaves_site"]);
    expect(policyChecks({ kind: "goto", url: "http://127.0.0.1:4000/scroll.html" }, null, start)).toEqual([]);
  });

  it("marks every check as Argus's policy", () => {
    expect(policyChecks({ kind: "type" }, null, start).every((c) => c.source === "policy")).toBe(true);
  });
});

describe("readProbe", () => {
  it("accepts the probe's shape and rejects what a page tampered with", () => {
    expect(readProbe({ at: null, focus: plain })).toEqual({ at: null, focus: plain });
    expect(readProbe({ at: "x", focus: null })).toBeNull();
    expect(readProbe(undefined)).toBeNull();
  });
});
