import { readdirSync, readFileSync } from "node:fs";
import { ComputerManager, type ComputerManagerOptions } from "@/lib/engines/computer/computer-manager";
import type { BrowserComputer } from "@/lib/engines/computer/browser-computer";
import { parseAllowList, parseBlockList } from "@/lib/foundation/net/url-policy";

/** Debian's Chromium unless ARGUS_CHROMIUM says otherwise; never a downloaded browser. */
export const CHROMIUM = process.env.ARGUS_CHROMIUM ?? "/usr/bin/chromium";

/** A manager as Argus would make it from ARGUS_BROWSER_BLOCK / ARGUS_BROWSER_ALLOW text. */
export function browserManager(o: { block?: string; allow?: string } & Partial<Omit<ComputerManagerOptions, "policy">> = {}): ComputerManager {
  const { block, allow, ...rest } = o;
  return new ComputerManager({
    chromiumPath: CHROMIUM,
    policy: { block: parseBlockList(block), allow: parseAllowList(allow) },
    idleMs: 10 * 60_000,
    maxDownloadBytes: 50 * 1024 * 1024,
    ...rest,
  });
}

/** The centre of an element in CSS pixels, from the page's own layout: where a model would click. */
export async function centreOf(computer: BrowserComputer, selector: string): Promise<{ x: number; y: number }> {
  const box = await computer.activePage!.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on the page`);
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

export function textOf(computer: BrowserComputer, selector: string): Promise<string> {
  return computer.activePage!.locator(selector).innerText();
}

/** The parent of a process, from /proc. */
export function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name is in parentheses and may hold spaces; the parent pid is the second field after it.
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** Processes descended from `root` whose command line is Chromium's: a browser left behind shows here. */
export function chromiumProcessesUnder(root = process.pid): number[] {
  const parents = new Map<number, number>();
  const commandOf = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), parentOf(Number(entry)));
      commandOf.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, "utf8"));
    } catch {
      // The process ended while we looked.
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p !== undefined && hops < 64; p = parents.get(p), hops += 1) if (p === root) return true;
    return false;
  };
  return [...commandOf.entries()].filter(([pid, cmd]) => /chrom/i.test(cmd) && descends(pid)).map(([pid]) => pid);
}
