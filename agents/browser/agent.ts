/**
 * The browsing agent (OpenAI's computer-use loop on the OpenHands spine):
 * open the start page, then screenshot → model → one move → screenshot, until
 * the model says done or the step budget runs out. Each move becomes a
 * `browse_interactive` event the controller carries out (asking the person
 * first when it is risky); its observation brings the next screenshot. The
 * model sees the screen downscaled and its coordinates are scaled back here.
 */
import { NO_USAGE, type Agent, type ImageRef, type ObservationExtras, type PrepareImage, type StepContext, type StepResult } from "@/agents/types";
import type { BrowserCommand } from "@/lib/engines/computer/browser-command";
import type { SafetyCheck } from "@/lib/foundation/protocol/browser-wire";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import type { BrowserEngine, BrowserEngineInputs, BrowserMove } from "./engine";
import { actionToPage, modelScreen, offScreen, regionOffScreen, regionToPage, scaleBetween, type Scale, type Size } from "./screen-scale";

export interface BrowserInputs {
  task: string;
  url: string;
  maxSteps: number;
  /** The browser's screen in CSS pixels. */
  viewport: Size;
  /** Long edge of the screenshots the model is shown. */
  maxEdge: number;
}

interface SavedImage {
  id: string;
  name: string;
  url: string;
}

interface Seen {
  screenshot: ImageRef | null;
  url: string;
  title: string;
  note: string;
  acknowledged: SafetyCheck[];
}

function asSaved(value: unknown): SavedImage[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is SavedImage => typeof v?.id === "string" && typeof v?.name === "string" && typeof v?.url === "string");
}

/** What the conversation agent is told when the browser finishes or gives up: what it found, and the pictures it saved. */
export function describeBrowsing(outputs: Record<string, unknown>): string {
  const images = asSaved(outputs.images);
  const pictures = images.length ? `\nSaved pictures (now uploads of this session): ${images.map((i) => `${i.name} (upload id ${i.id})`).join(", ")}.` : "";
  const said = typeof outputs.answer === "string" ? outputs.answer : typeof outputs.reason === "string" ? outputs.reason : "The browser finished.";
  return `Browser: ${said}${pictures}`;
}

export class BrowserAgent implements Agent {
  readonly name = "browser" as const;
  private readonly screen: Size;
  private readonly scale: Scale;
  private readonly engine: BrowserEngine;
  private opened = false;
  private moves = 0;
  private seen: Seen | null = null;
  private readonly saved: SavedImage[] = [];

  constructor(
    private readonly inputs: BrowserInputs,
    makeEngine: (inputs: BrowserEngineInputs) => BrowserEngine,
    private readonly prepareImage: PrepareImage,
  ) {
    this.screen = modelScreen(inputs.viewport, inputs.maxEdge);
    this.scale = scaleBetween(this.screen, inputs.viewport);
    this.engine = makeEngine({ task: inputs.task, startUrl: inputs.url, screen: this.screen });
  }

  async step(ctx: StepContext): Promise<StepResult> {
    if (!this.opened) {
      this.opened = true;
      return { action: { action: "browse", args: { url: this.inputs.url, thought: `Opening ${this.inputs.url}.` } }, usage: NO_USAGE };
    }
    if (this.moves >= this.inputs.maxSteps) {
      const where = this.seen?.url ? ` It was at ${this.seen.url}.` : "";
      return {
        action: {
          action: "reject",
          args: { outputs: { reason: `The browser used all ${this.inputs.maxSteps} of its steps without finishing the task.${where}`, images: [...this.saved] as never }, thought: "Out of steps." },
        },
        usage: NO_USAGE,
      };
    }
    const seen = this.seen;
    if (!seen?.screenshot) {
      return { action: { action: "reject", args: { outputs: { reason: `The browser could not show the page: ${seen?.note || "no screenshot"}`, images: [] }, thought: "" } }, usage: NO_USAGE };
    }
    const picture = await this.prepareImage(seen.screenshot, Math.max(this.screen[0], this.screen[1]));
    const decision = await this.engine.decide(ctx, {
      view: { image: picture.image, mediaType: picture.mediaType, width: this.screen[0], height: this.screen[1], url: seen.url, title: seen.title },
      note: seen.note,
      acknowledged: seen.acknowledged,
    });
    this.moves++;
    const move = decision.move;
    if (move.tool === "done") {
      return { action: { action: "finish", args: { outputs: { answer: move.answer, images: [...this.saved] as never }, final_thought: move.answer } }, usage: decision.usage };
    }
    const command = this.command(move);
    return { action: { action: "browse_interactive", args: { browser_actions: JSON.stringify(command), thought: decision.thinking } }, usage: decision.usage };
  }

  /** The move in the page's CSS pixels, as the browser steps carry it out. */
  private command(move: Exclude<BrowserMove, { tool: "done" }>): BrowserCommand {
    const startUrl = this.inputs.url;
    switch (move.tool) {
      case "computer": {
        const off = offScreen(move.action, this.screen);
        if (off) return { tool: "invalid", error: off, summary: `${move.action.type}(${JSON.stringify(move.action).slice(0, 120)})`, startUrl };
        return { tool: "computer", action: actionToPage(move.action, this.scale), checks: move.checks, startUrl };
      }
      case "save_image": {
        const off = move.region ? regionOffScreen(move.region, this.screen) : null;
        if (off) return { tool: "invalid", error: off, summary: `save_image(${move.name})`, startUrl };
        return { tool: "save_image", name: move.name, ...(move.selector ? { selector: move.selector } : {}), ...(move.region ? { region: regionToPage(move.region, this.scale) } : {}), startUrl };
      }
      case "goto":
        return { tool: "goto", url: move.url, startUrl };
      case "back":
        return { tool: "back", startUrl };
      case "invalid":
        return { tool: "invalid", error: move.error, summary: move.summary, startUrl };
    }
  }

  observe(event: ArgusEvent, extras: ObservationExtras = { images: [], viewed: [] }): void {
    if (!("observation" in event)) return;
    if (event.observation === "browse") {
      const x = event.extras as Record<string, unknown>;
      for (const s of asSaved(x.saved)) this.saved.push(s);
      this.seen = {
        screenshot: extras.images[0] ?? null,
        url: event.extras.url,
        title: typeof x.title === "string" ? x.title : "",
        note: event.content,
        acknowledged: Array.isArray(x.acknowledged) ? (x.acknowledged as SafetyCheck[]) : [],
      };
    } else if (event.observation === "error") {
      this.seen = { screenshot: null, url: "", title: "", note: event.content, acknowledged: [] };
    }
  }

  describeOutputs(outputs: Record<string, unknown>): string {
    return describeBrowsing(outputs);
  }
}
