/**
 * The lab and one session's Computer on it, for a test file that attacks or exercises the
 * Computer directly: a real Chromium allowed to reach the lab, downloads in a scratch directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserComputer } from "@/lib/engines/computer/browser-computer";
import type { ComputerManager } from "@/lib/engines/computer/computer-manager";
import { startLab, type Lab } from "./browser-lab";
import { browserManager } from "./computer";

export interface LabBrowser {
  lab: Lab;
  manager: ComputerManager;
  computer: BrowserComputer;
  close(): Promise<void>;
}

/** `page`: where the computer starts (a lab path), none to stay on about:blank. */
export async function openLabBrowser(name: string, options: { page?: string } = {}): Promise<LabBrowser> {
  const lab = await startLab();
  const scratch = mkdtempSync(path.join(os.tmpdir(), `argus-${name}-`));
  const manager = browserManager({ allow: lab.hostPort });
  const close = async () => {
    await manager.closeAll();
    await lab.close();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const computer = await manager.getComputer(name, { downloadDir: scratch });
    if (options.page) await computer.goto(`${lab.origin}${options.page}`);
    return { lab, manager, computer, close };
  } catch (error) {
    await close();
    throw error;
  }
}
