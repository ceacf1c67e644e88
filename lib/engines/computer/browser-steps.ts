/**
 * Carries out the browsing agent's steps on the session's Computer, asking the
 * person first when a step is risky (ask before acting; the seed asks after):
 * Argus's policy checks (unless the session turned them off) and the model's
 * own `pending_safety_checks` become one safety card, and the action runs only
 * on Confirm. Every step ends with a screenshot stored as a session file and
 * an observation in words. A cancelled run stops waiting at once, even in the
 * middle of an action (the action itself is left to the browser to finish).
 */
import { isArgusError } from "@/lib/foundation/errors";
import type { PersonQuestion } from "@/lib/engines/kernels/bridge";
import { SAFETY_OPTIONS, type SafetyCheck, type SafetyPayload } from "@/lib/foundation/protocol/browser-wire";
import { browseObservation, type SavedImage } from "@/lib/foundation/protocol/event-builders";
import type { BrowseRequest, BrowseResult, BrowserPort } from "@/lib/features/runtime/browser-port";
import type { BrowserComputer } from "./browser-computer";
import { commandPointer, commandSummary, readCommand, type BrowserCommand } from "./browser-command";
import { performAction } from "./computer-actions";
import type { ComputerManager } from "./computer-manager";
import { policyChecks, policyMove } from "./safety-policy";

export interface StoredScreenshot {
  fileId: string;
  url: string;
  width: number;
  height: number;
}

export interface BrowserStepsDeps {
  computers: Pick<ComputerManager, "getComputer">;
  /** The session's setting for Argus's own checks (the model's are always asked). */
  policyChecks(sessionId: string): Promise<"ask" | "never"> | "ask" | "never";
  /** Where the session's downloads land (its workspace). */
  downloadDir(sessionId: string): string;
  saveScreenshot(sessionId: string, png: Buffer, name: string): Promise<StoredScreenshot>;
  /** Puts a picture into the session as an upload the planner and coder can open by name. */
  saveUpload(sessionId: string, png: Buffer, name: string): Promise<SavedImage>;
}

/** The person's answer to a safety card allows the step only when it says so. */
export function isConfirmation(answer: string): boolean {
  return /^(confirm|confirmed|yes|y|ok|allow)$/i.test(answer.trim());
}

/** Waits for `work` unless the run is cancelled first (then rejects at once). */
function unlessCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error("cancelled"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const PNG_NAME = /\.png$/i;

export class BrowserSteps implements BrowserPort {
  private shots = 0;

  constructor(private readonly d: BrowserStepsDeps) {}

  async perform(req: BrowseRequest): Promise<BrowseResult> {
    const { sessionId, signal } = req;
    const computer = await unlessCancelled(this.d.computers.getComputer(sessionId, { downloadDir: this.d.downloadDir(sessionId) }), signal);
    const command: BrowserCommand =
      req.step.kind === "open"
        ? { tool: "goto", url: req.step.url, startUrl: req.step.url }
        : (readCommand(req.step.json) ?? { tool: "invalid", error: "The step could not be read.", summary: "unreadable step", startUrl: "" });
    const summary = commandSummary(command);
    const pointer = commandPointer(command);
    const downloadsBefore = computer.downloads().length;
    const lines: string[] = [];
    let error = "";
    let saved: SavedImage[] = [];
    let acknowledged: SafetyCheck[] = [];

    const checks = req.step.kind === "command" ? await unlessCancelled(this.checksFor(sessionId, computer, command), signal) : [];
    let allowed = true;
    if (checks.length > 0) {
      const answer = await this.askFirst(req.ask, sessionId, computer, command, summary, pointer, checks);
      allowed = isConfirmation(answer);
      if (allowed) acknowledged = checks.filter((c) => c.source === "model");
      else {
        error = `The person refused this step (${checks.map((c) => c.message).join(" ")}). Nothing was done; find another way, or finish with done and say what you could not do.`;
        lines.push(error);
      }
    }

    if (allowed) {
      try {
        saved = await unlessCancelled(this.act(sessionId, computer, command), signal);
        lines.push(command.tool === "invalid" ? `Could not do that: ${command.error}` : `Did ${summary}.`);
        if (command.tool === "invalid") error = command.error;
      } catch (caught) {
        if (signal.aborted || !isArgusError(caught)) throw caught;
        error = caught.message;
        lines.push(`Could not ${summary}: ${error}`);
      }
    }

    for (const r of computer.takeRefusals()) lines.push(`The browser was kept from loading ${r.target}: ${r.message}`);
    for (const d of computer.downloads().slice(downloadsBefore)) lines.push(d.message);
    for (const s of saved) lines.push(`Saved ${s.name} into the session as an upload: the planner and the coder can open it by that name.`);

    const shot = await unlessCancelled(this.screenshot(sessionId, computer), signal);
    const title = await computer.title();
    const url = computer.currentUrl();
    lines.push(`Now at ${url}${title ? ` ("${title}")` : ""}${computer.pageCount > 1 ? `, ${computer.pageCount} tabs open (the newest is shown)` : ""}.`);
    const observation = browseObservation({
      text: lines.join("\n"),
      url,
      title,
      action: summary,
      error,
      screenshotUrl: shot.url,
      pointer,
      viewport: [computer.dimensions[0], computer.dimensions[1]],
      tabs: computer.pageCount,
      saved,
      acknowledged,
    });
    return { observation, images: [{ fileId: shot.fileId, label: `screen after ${summary}`, width: shot.width, height: shot.height }] };
  }

  private async checksFor(sessionId: string, computer: BrowserComputer, c: BrowserCommand): Promise<SafetyCheck[]> {
    const fromModel = c.tool === "computer" ? c.checks.map((check) => ({ ...check, source: "model" as const })) : [];
    if (c.tool === "invalid" || (await this.d.policyChecks(sessionId)) === "never") return fromModel;
    const move = policyMove(c);
    let probe = null;
    if (move.kind === "click" || move.kind === "type" || move.kind === "keypress") {
      // A point off the screen is refused when the action runs, in words: nothing to ask then.
      probe = await computer.probe(move.kind === "click" ? { x: move.x, y: move.y } : null).catch((e: unknown) => {
        if (isArgusError(e) && e.type === "bad_request") return undefined;
        return null;
      });
      if (probe === undefined) return fromModel;
    }
    return [...fromModel, ...policyChecks(move, probe, c.startUrl)];
  }

  private async askFirst(
    ask: (q: PersonQuestion) => Promise<string>,
    sessionId: string,
    computer: BrowserComputer,
    c: BrowserCommand,
    summary: string,
    pointer: { x: number; y: number } | null,
    checks: SafetyCheck[],
  ): Promise<string> {
    const shot = await this.screenshot(sessionId, computer).catch(() => null);
    const payload: SafetyPayload = {
      action: summary,
      url: computer.currentUrl(),
      checks,
      screenshot: shot?.url ?? null,
      pointer,
      viewport: [computer.dimensions[0], computer.dimensions[1]],
    };
    const why = checks.map((check) => check.message).join(" ");
    return ask({ kind: "safety", prompt: `The browser wants to ${summary} on ${payload.url}. ${why} Allow it?`, options: [...SAFETY_OPTIONS], payload });
  }

  private async act(sessionId: string, computer: BrowserComputer, c: BrowserCommand): Promise<SavedImage[]> {
    switch (c.tool) {
      case "computer":
        await performAction(computer, c.action);
        return [];
      case "goto":
        await computer.goto(c.url);
        return [];
      case "back":
        await computer.back();
        return [];
      case "save_image": {
        const png = await computer.capture(c.region ? { region: c.region } : { selector: c.selector ?? "img" });
        const name = PNG_NAME.test(c.name) ? c.name : `${c.name.replace(/\.[a-z0-9]{1,5}$/i, "")}.png`;
        return [await this.d.saveUpload(sessionId, png, name)];
      }
      case "invalid":
        return [];
    }
  }

  private async screenshot(sessionId: string, computer: BrowserComputer): Promise<StoredScreenshot> {
    const shot = await computer.screenshot();
    return this.d.saveScreenshot(sessionId, shot.png, `browser-${++this.shots}.png`);
  }
}
