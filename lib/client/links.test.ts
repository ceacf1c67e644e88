import { describe, expect, it } from "vitest";
import { classifyLink, isSafeImageUrl } from "./links";

describe("classifyLink", () => {
  it("opens http(s) externally", () => {
    expect(classifyLink("https://example.com/a")).toEqual({ kind: "external", href: "https://example.com/a" });
    expect(classifyLink("HTTP://example.com")).toMatchObject({ kind: "external" });
  });

  it("keeps same-origin paths, fragments and mailto as ordinary links", () => {
    for (const h of ["/api/files/1", "#x", "?a=1", "notes.txt", "mailto:a@b.c", "a/b:c"]) expect(classifyLink(h).kind).toBe("internal");
  });

  it("makes dangerous or unknown schemes inert", () => {
    for (const h of ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,x", "vbscript:x", "//evil.example", "\\\\evil", "", null, undefined]) {
      expect(classifyLink(h).kind).toBe("inert");
    }
  });

  it("allows images from this server and http(s) only", () => {
    expect(isSafeImageUrl("/api/files/1")).toBe(true);
    expect(isSafeImageUrl("https://x.example/a.png")).toBe(true);
    expect(isSafeImageUrl("mailto:a@b.c")).toBe(false);
    expect(isSafeImageUrl("data:image/png;base64,AAAA")).toBe(false);
  });
});
