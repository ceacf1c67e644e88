/**
 * The browsing agent's machinery, built by the composition root only when a
 * browser model is named and Chromium is there: one ComputerManager (a
 * browser context per session) and the steps that drive it for runs. Without
 * them the conversation simply has no `browse` action.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { ArgusConfig } from "@/lib/foundation/config";
import { BrowserSteps } from "@/lib/engines/computer/browser-steps";
import { netnsUnavailable } from "@/lib/engines/computer/chromium-netns";
import { ComputerManager } from "@/lib/engines/computer/computer-manager";
import { getSession } from "@/lib/engines/db/sessions";
import { storeGeneratedImage } from "@/lib/engines/files/generated";
import { storeUpload } from "@/lib/engines/files/store-upload";
import { errorNote } from "@/lib/foundation/protocol/event-builders";
import { workspaceDir } from "@/lib/foundation/common/workspace";
import type { SessionDeps } from "@/lib/features/sessions/service";

export interface BrowserServices {
  computers: ComputerManager;
  steps: BrowserSteps;
}

/** Why browsing is off, in words for the start log; null when it is on. */
export function browsingOff(config: ArgusConfig): string | null {
  if (!config.model.byRole.browser) return "no browser model is named (ARGUS_MODEL_BROWSER)";
  if (!existsSync(config.browser.chromiumPath)) return `Chromium is not at ${config.browser.chromiumPath} (install Debian's chromium or set ARGUS_CHROMIUM)`;
  // Never unconfined: without a network namespace the egress proxy would be a request, not a boundary.
  return netnsUnavailable();
}

export function createBrowserServices(deps: SessionDeps, log: (line: string) => void): BrowserServices | null {
  const off = browsingOff(deps.config);
  if (off) {
    if (deps.config.model.byRole.browser) log(`[argus] WARNING: browsing is off: ${off}`);
    return null;
  }
  const computers = ComputerManager.fromConfig(deps.config.browser, {
    log,
    onNotice: (sessionId, text) => {
      deps.events
        .append(sessionId, errorNote(text, "BROWSER_RESET"))
        .catch((error: unknown) => log(`[browser] could not tell session ${sessionId}: ${String(error)}`));
    },
  });
  const steps = new BrowserSteps({
    computers,
    policyChecks: async (sessionId) => ((await getSession(deps.db, sessionId))?.settings.browserPolicyChecks === "never" ? "never" : "ask"),
    downloadDir: (sessionId) => path.join(workspaceDir(deps.config, sessionId), "downloads"),
    async saveScreenshot(sessionId, png, name) {
      const stored = await storeGeneratedImage(deps, sessionId, png, { name, mime: "image/png", label: name });
      if (!stored) throw new Error("the browser's screenshot could not be read");
      return stored;
    },
    async saveUpload(sessionId, png, name) {
      const session = await getSession(deps.db, sessionId);
      if (!session) throw new Error("the session is gone");
      const upload = await storeUpload(deps, session, { bytes: png, filename: name });
      return { id: upload.id, name: upload.name, url: upload.url };
    },
  });
  return { computers, steps };
}
