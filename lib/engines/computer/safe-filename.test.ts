import { describe, expect, it } from "vitest";
import { nameCandidates, safeDownloadName } from "./safe-filename";

describe("safeDownloadName", () => {
  it.each([
    ["report.csv", "report.csv"],
    ["../../etc/passwd", "passwd"],
    ["..\\..\\Windows\\win.ini", "win.ini"],
    ["/absolute/path/photo.png", "photo.png"],
    [".bashrc", "bashrc"],
    ["...hidden.txt", "hidden.txt"],
    ["..", "download"],
    ["", "download"],
    ["   ", "download"],
    ["a\u0000b\u001fc.txt", "abc.txt"],
    ["invoice\u202Egpj.exe", "invoicegpj.exe"],
    ['what?<is>:this*|".pdf', "what__is__this___.pdf"],
    ["trailing dots...", "trailing dots"],
    ["tabs\tand\nnewlines.txt", "tabs and newlines.txt"],
    ["café.png", "café.png"],
  ])("%j → %j", (suggested, safe) => expect(safeDownloadName(suggested)).toBe(safe));

  it("bounds long names and keeps the extension", () => {
    expect(safeDownloadName(`${"x".repeat(500)}.tar.gz`)).toBe(`${"x".repeat(120)}.gz`);
    // A "extension" longer than 16 characters is part of the name.
    expect(safeDownloadName(`a.${"e".repeat(200)}`)).toBe(`a.${"e".repeat(118)}`);
  });
});

describe("nameCandidates", () => {
  it("numbers the stem and keeps the extension", () => {
    const names = nameCandidates("report.csv");
    expect([names.next().value, names.next().value, names.next().value]).toEqual(["report.csv", "report (1).csv", "report (2).csv"]);
    expect([...nameCandidates("README", 3)]).toEqual(["README", "README (1)", "README (2)"]);
  });
});
