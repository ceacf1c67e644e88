import { describe, expect, it } from "vitest";
import { hashBrowserIdentity } from "@/lib/server/auth";
import { identityForNewSession } from "./browser-identity";

describe("identityForNewSession", () => {
  const recorded = new Set([hashBrowserIdentity("minted-before")]);
  const isRecorded = async (hash: string) => recorded.has(hash);

  it("keeps the one cookie the server minted before", async () => {
    expect(await identityForNewSession(["minted-before"], isRecorded)).toEqual({ identity: "minted-before", issued: false });
  });

  it("mints a new identity for no cookie, an unknown one, or several at once", async () => {
    for (const presented of [[], ["KNOWN"], ["KNOWN", "minted-before"], ["minted-before", "minted-before"]]) {
      const got = await identityForNewSession(presented, isRecorded);
      expect(got.issued).toBe(true);
      expect(presented).not.toContain(got.identity);
      expect(got.identity).toMatch(/^[\w-]{40,}$/);
    }
  });
});
