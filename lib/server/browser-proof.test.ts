import { describe, expect, it } from "vitest";
import { browserProofMatches, browserProofOf, provenBrowsers } from "./browser-proof";

describe("browser proof", () => {
  it("belongs to one identity", () => {
    expect(browserProofMatches("a", browserProofOf("a"))).toBe(true);
    expect(browserProofMatches("b", browserProofOf("a"))).toBe(false);
    expect(browserProofMatches("a", "")).toBe(false);
  });

  it("a browser's write counts only the cookie its proof belongs to", () => {
    const write = { fromBrowser: true, write: true };
    expect(provenBrowsers(["planted", "own"], { ...write, proof: browserProofOf("own") })).toEqual(["own"]);
    expect(provenBrowsers(["planted"], { ...write, proof: null })).toEqual([]);
    expect(provenBrowsers(["planted"], { ...write, proof: "garbage" })).toEqual([]);
  });

  it("a browser's read with the header is checked too; without it (an <img>) the cookie alone reads", () => {
    expect(provenBrowsers(["planted", "own"], { fromBrowser: true, write: false, proof: browserProofOf("own") })).toEqual(["own"]);
    expect(provenBrowsers(["planted", "own"], { fromBrowser: true, write: false, proof: null })).toEqual(["planted", "own"]);
  });

  it("a request not from a browser is not checked (no other page writes into its cookies)", () => {
    expect(provenBrowsers(["x"], { fromBrowser: false, write: true, proof: null })).toEqual(["x"]);
  });
});
