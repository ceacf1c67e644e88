/**
 * Downloads in real Chromium: they land in the directory the caller gives
 * (the session's workspace) under a safe name, never through a link planted
 * there, and a download past the cap is stopped while it arrives.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ComputerManager } from "@/lib/engines/computer/computer-manager";
import { startLab, type Lab } from "../helpers/browser-lab";
import { browserManager, centreOf } from "../helpers/computer";
import { tempDir } from "../helpers/temp-dir";

const MB = 1024 * 1024;
const PRICE_LIST = "product,price\nred mug,9\ngreen lamp,24\nblue chair,70\n";

let lab: Lab;
let manager: ComputerManager;
const scratch = tempDir("argus-downloads-");

function workspace(name: string): string {
  const dir = path.join(scratch.dir, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  lab = await startLab({ bigDownloadBytes: 32 * MB });
  manager = browserManager({ allow: lab.hostPort, maxDownloadBytes: 1 * MB });
});

afterAll(async () => {
  await manager?.closeAll();
  await lab?.close();
  scratch.cleanup();
});

describe("downloads", () => {
  it("land in the session's directory, and say so in a sentence", async () => {
    const dir = workspace("plain");
    const computer = await manager.getComputer("plain", { downloadDir: dir });
    await computer.goto(lab.origin);
    const link = await centreOf(computer, "#download");
    await computer.click(link.x, link.y);
    await computer.settleDownloads();
    expect(computer.downloads()).toEqual([
      {
        url: `${lab.origin}/download/price-list.csv`,
        suggestedName: "price-list.csv",
        status: "saved",
        name: "price-list.csv",
        path: path.join(dir, "price-list.csv"),
        bytes: PRICE_LIST.length,
        message: `Downloaded "price-list.csv" as "price-list.csv" (${PRICE_LIST.length} bytes) into the workspace.`,
      },
    ]);
    expect(readFileSync(path.join(dir, "price-list.csv"), "utf8")).toBe(PRICE_LIST);
    // The page is still the catalogue: a download is not a navigation.
    expect(computer.currentUrl()).toBe(`${lab.origin}/`);

    // The same file again is kept beside the first, never over it.
    await computer.click(link.x, link.y);
    await computer.settleDownloads();
    expect(computer.downloads()[1]).toMatchObject({ status: "saved", name: "price-list (1).csv" });
    expect(readdirSync(dir).sort()).toEqual(["price-list (1).csv", "price-list.csv"]);
  });

  it("keep a hostile suggested name inside the directory, and not hidden", async () => {
    const dir = workspace("hostile/inner");
    const computer = await manager.getComputer("hostile", { downloadDir: dir });
    await computer.goto(`${lab.origin}/download/sneaky`);
    await computer.settleDownloads();
    const [record] = computer.downloads();
    expect(record).toMatchObject({ status: "saved" });
    expect(record!.name).not.toMatch(/^\.|[/\\]/);
    expect(readdirSync(dir)).toEqual([record!.name]);
    expect(readFileSync(path.join(dir, record!.name!), "utf8")).toBe("echo owned\n");
    expect(readdirSync(path.join(scratch.dir, "hostile"))).toEqual(["inner"]);
  });

  it("never follow a link planted at the file's name, dangling or not", async () => {
    const dir = workspace("planted");
    const victim = path.join(scratch.dir, "victim.txt");
    writeFileSync(victim, "precious");
    symlinkSync(victim, path.join(dir, "price-list.csv"));
    const nowhere = path.join(scratch.dir, "created-through-a-link.csv");
    symlinkSync(nowhere, path.join(dir, "price-list (1).csv"));

    const computer = await manager.getComputer("planted", { downloadDir: dir });
    await computer.goto(lab.origin);
    const link = await centreOf(computer, "#download");
    await computer.click(link.x, link.y);
    await computer.settleDownloads();

    expect(computer.downloads()).toEqual([expect.objectContaining({ status: "saved", name: "price-list (2).csv" })]);
    expect(readFileSync(path.join(dir, "price-list (2).csv"), "utf8")).toBe(PRICE_LIST);
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(existsSync(nowhere)).toBe(false);
    expect(lstatSync(path.join(dir, "price-list.csv")).isSymbolicLink()).toBe(true);
  });

  it("stop a download past ARGUS_BROWSER_MAX_DOWNLOAD_MB while it arrives", async () => {
    const dir = workspace("big");
    const computer = await manager.getComputer("big", { downloadDir: dir });
    await computer.goto(`${lab.origin}/download/big.bin`);
    await computer.settleDownloads();
    expect(computer.downloads()).toEqual([
      expect.objectContaining({
        status: "too_large",
        name: null,
        message: 'The download of "big.bin" was stopped: it is larger than the 1 MB download limit (ARGUS_BROWSER_MAX_DOWNLOAD_MB).',
      }),
    ]);
    expect(readdirSync(dir)).toEqual([]);
    // The server saw the transfer cut short, not sent whole and thrown away.
    await expect.poll(() => lab.hits.find((h) => h.startsWith("big.bin closed")), { timeout: 15_000 }).toBeDefined();
    const sent = Number(/after (\d+) of/.exec(lab.hits.find((h) => h.startsWith("big.bin closed"))!)![1]);
    expect(sent).toBeLessThan(32 * MB);
  });
});
