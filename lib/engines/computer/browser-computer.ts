/**
 * The Computer over one Playwright browser context: one session's browser.
 * Every argument is validated (they come from a model), every coordinate must
 * be on the screen, actions run one at a time, and each waits for its effect
 * (settle.ts) so the next screenshot shows it. Where the browser may go is
 * decided outside, by the guard wired to the context (computer-manager.ts);
 * here `goto` only asks first, so a refusal is an error in words.
 */
import type { BrowserContext, Page } from "playwright-core";
import { isArgusError } from "@/lib/foundation/errors";
import { ButtonSchema, Coordinate, DragPathSchema, KeysSchema, parseArg, ScrollDelta, TextSchema, UrlSchema, WaitSchema } from "./computer-args";
import type { BrowserRefusal, Computer, DownloadRecord, MouseButton, Point, Screenshot } from "./computer-types";
import type { DownloadKeeper } from "./download-keeper";
import { badAction, browserUnavailable, refused } from "./errors";
import { capturePng, pngSize, type CaptureTarget } from "./page-capture";
import { dragAlong, pressChord } from "./page-input";
import { openAddress, stepHistory } from "./page-navigation";
import { firstLine, MAX_TITLE_CHARS, MAX_URL_CHARS, oneLine } from "./page-text";
import { chordKeys } from "./keys";
import type { NetworkGuard } from "./network-guard";
import type { RefusalLog } from "./refusal-log";
import { checkPoint, type Dimensions } from "./screen";
import { withScheme } from "../../foundation/net/url-policy";
import { settle } from "./settle";
import { Tabs } from "./tabs";
import { evaluateIsolated, probeIsolated } from "./isolated-eval";
import { readProbe, type PageProbe } from "./page-probe";

export interface BrowserComputerParts {
  context: BrowserContext;
  guard: NetworkGuard;
  refusals: RefusalLog;
  downloads: DownloadKeeper;
  dimensions: Dimensions;
  deviceScaleFactor: number;
  /** Runs when the computer closes, after its context: the context's own proxy, say. */
  onClose?: () => Promise<void>;
  navigationTimeoutMs?: number;
  /** How many pages Chromium has in this context, announced or not (page-targets.ts). */
  pagesInChromium?: () => number;
}

/** An action's deadline passed (see act). */
const STUCK = Symbol("stuck");
/** The longest wait action (computer-args.ts WaitSchema). */
const MAX_WAIT_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class BrowserComputer implements Computer {
  readonly environment = "browser" as const;
  readonly dimensions: Dimensions;
  readonly deviceScaleFactor: number;
  /** When an action last ran (or ended), for the idle reaper. */
  lastUsed = Date.now();
  private running = 0;
  private closing: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly tabs: Tabs;
  private readonly navigationTimeoutMs: number;

  constructor(private readonly parts: BrowserComputerParts) {
    this.dimensions = parts.dimensions;
    this.deviceScaleFactor = parts.deviceScaleFactor;
    this.navigationTimeoutMs = parts.navigationTimeoutMs ?? 30_000;
    this.tabs = new Tabs(parts.context, (page) => parts.downloads.attach(page), parts.pagesInChromium);
    // A crashed browser closes its contexts: this computer is then finished.
    parts.context.once("close", () => void this.close());
  }

  get closed(): boolean {
    return this.closing !== null;
  }

  get busy(): boolean {
    return this.running > 0;
  }

  /**
   * An input to the page (click, keys, typing, drag): when the page closes itself in answer
   * (`window.close()` on a click), Playwright reports the page closed mid-action, yet the input
   * was delivered and did what it was meant to; the tabs then show the opener.
   */
  private input(fn: (page: Page) => Promise<void>): Promise<void> {
    return this.act(async (page) => {
      try {
        await fn(page);
      } catch (error) {
        if (!page.isClosed()) throw error;
      }
    });
  }

  /**
   * Runs one action at a time: model actions are a sequence, and the mouse has one position.
   * An action that outlives its deadline means the page no longer answers (a script that never
   * ends holds its renderer, and DevTools waits for it forever): the browser is closed, which
   * ends the renderer and frees the queue, and the next action starts a new one.
   */
  private act<T>(fn: (page: Page) => Promise<T>, options: { settle?: boolean; deadlineMs?: number } = {}): Promise<T> {
    // Busy from the call, not from when its turn comes: a queued action must keep the reaper away too.
    this.running += 1;
    this.lastUsed = Date.now();
    const deadlineMs = options.deadlineMs ?? this.navigationTimeoutMs * 2 + MAX_WAIT_MS;
    const run = async () => {
      if (this.closed) throw browserUnavailable("This session's browser has been closed; the next action will start a new one.");
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(STUCK), deadlineMs);
      });
      try {
        const work = async () => {
          const page = this.tabs.active ?? (await this.parts.context.newPage());
          const result = await fn(page);
          if (options.settle !== false) await settle(this.tabs, this.navigationTimeoutMs / 4);
          return result;
        };
        return await Promise.race([work(), expired]);
      } catch (error) {
        if (error === STUCK) {
          void this.close();
          throw browserUnavailable(
            `The page stopped answering for ${Math.round(deadlineMs / 1000)} s (a script that never ends?); its browser was closed, and the next action will start a new one.`,
          );
        }
        if (isArgusError(error)) throw error;
        if (this.closed) throw browserUnavailable("The browser stopped during this action; the next action will start a new one.", error);
        throw browserUnavailable(`The browser could not do that: ${firstLine(error)}`, error);
      } finally {
        clearTimeout(timer);
      }
    };
    const next = this.queue.then(run, run).finally(() => {
      this.running -= 1;
      this.lastUsed = Date.now();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** How long a reading of the page (probe, title) may take before the page counts as stuck. */
  private get readDeadlineMs(): number {
    return Math.max(1000, this.navigationTimeoutMs / 2);
  }

  private point(x: unknown, y: unknown): Point {
    const p = { x: parseArg(Coordinate, x, "x"), y: parseArg(Coordinate, y, "y") };
    checkPoint(p.x, p.y, this.dimensions);
    return p;
  }

  /** Opens the first page, so the first screenshot has something to show. */
  async start(): Promise<void> {
    await this.act(async () => undefined, { settle: false });
  }

  screenshot(): Promise<Screenshot> {
    return this.act(
      async (page) => {
        const png = await page.screenshot({ type: "png", caret: "initial", timeout: this.navigationTimeoutMs });
        return { png, ...pngSize(png), deviceScaleFactor: this.deviceScaleFactor };
      },
      { settle: false, deadlineMs: this.navigationTimeoutMs + this.readDeadlineMs },
    );
  }

  async click(x: number, y: number, button: MouseButton = "left"): Promise<void> {
    const which = parseArg(ButtonSchema, button, "button");
    if (which === "back") return this.back();
    if (which === "forward") return this.forward();
    const p = this.point(x, y);
    await this.input((page) => page.mouse.click(p.x, p.y, { button: which === "wheel" ? "middle" : which }));
  }

  async doubleClick(x: number, y: number): Promise<void> {
    const p = this.point(x, y);
    await this.input((page) => page.mouse.dblclick(p.x, p.y));
  }

  async scroll(x: number, y: number, dx: number, dy: number): Promise<void> {
    const p = this.point(x, y);
    const [deltaX, deltaY] = [parseArg(ScrollDelta, dx, "dx"), parseArg(ScrollDelta, dy, "dy")];
    // The wheel goes to whatever is under the pointer, so an inner scrollable box scrolls, not the page.
    await this.act(async (page) => {
      await page.mouse.move(p.x, p.y);
      await page.mouse.wheel(deltaX, deltaY);
    });
  }

  async type(text: string): Promise<void> {
    const value = parseArg(TextSchema, text, "text");
    await this.input((page) => page.keyboard.type(value));
  }

  async keypress(keys: readonly string[]): Promise<void> {
    const chord = chordKeys(parseArg(KeysSchema, keys, "keys"));
    await this.input((page) => pressChord(page, chord));
  }

  async drag(path: readonly Point[]): Promise<void> {
    const points = parseArg(DragPathSchema, path, "path");
    for (const p of points) checkPoint(p.x, p.y, this.dimensions);
    await this.input((page) => dragAlong(page, points));
  }

  async move(x: number, y: number): Promise<void> {
    const p = this.point(x, y);
    await this.act((page) => page.mouse.move(p.x, p.y));
  }

  async wait(ms = 1000): Promise<void> {
    const duration = parseArg(WaitSchema, ms, "ms");
    await this.act(() => sleep(duration), { settle: false });
  }

  /** The active page's address, cut short for reporting (a page can make it two megabytes long). */
  currentUrl(): string {
    return oneLine(this.tabs.active?.url() ?? "about:blank", MAX_URL_CHARS);
  }

  async goto(rawUrl: string): Promise<void> {
    const url = withScheme(parseArg(UrlSchema, rawUrl, "url"));
    const judged = await this.parts.guard.judgeUrl(url, { topLevel: true });
    if (judged.kind === "refuse") throw refused(judged.message);
    await this.act((page) => openAddress(page, url, { refusals: this.parts.refusals, timeoutMs: this.navigationTimeoutMs }));
  }

  async back(): Promise<void> {
    await this.act((page) => stepHistory(page, "back", this.navigationTimeoutMs));
  }

  async forward(): Promise<void> {
    await this.act((page) => stepHistory(page, "forward", this.navigationTimeoutMs));
  }

  /**
   * What is under `point` and which field has focus, for Argus's safety policy; null when the
   * page could not be read (it is navigating, or it broke the probe).
   */
  async probe(point: Point | null): Promise<PageProbe | null> {
    if (point) this.point(point.x, point.y);
    return this.act(async (page) => readProbe(await probeIsolated(page, point).catch(() => null)), { settle: false, deadlineMs: this.readDeadlineMs });
  }

  /** The active page's title, on one line and cut short ('' when it has none or cannot be read). */
  title(): Promise<string> {
    // Read in the isolated world and cut there: only the part shown crosses to Argus.
    const read = (page: Page) => evaluateIsolated(page, `String(document.title).slice(0, ${MAX_TITLE_CHARS * 2})`).catch(() => "");
    return this.act(async (page) => oneLine(String((await read(page)) ?? ""), MAX_TITLE_CHARS), { settle: false, deadlineMs: this.readDeadlineMs });
  }

  /**
   * A picture of part of the page: the first element matching `selector`, or a region in CSS
   * pixels of the screen, as PNG. An image element is saved from its own file (full resolution,
   * fetched by the page through the same gates as everything else); anything else, or an image
   * the page cannot fetch, as a screenshot of it at the screen's device scale.
   */
  async capture(target: CaptureTarget): Promise<Buffer> {
    if ("region" in target) {
      const { x, y, width, height } = target.region;
      if (!(width >= 1 && height >= 1)) throw badAction("The region must be at least 1×1 pixels.", "region");
      this.point(x, y);
      this.point(x + width - 1, y + height - 1);
    }
    return this.act((page) => capturePng(page, target, { timeoutMs: this.navigationTimeoutMs, deviceScaleFactor: this.deviceScaleFactor }), { settle: false });
  }

  /** What was refused since the last call, for the model's next observation. */
  takeRefusals(): BrowserRefusal[] {
    return this.parts.refusals.take();
  }

  downloads(): readonly DownloadRecord[] {
    return this.parts.downloads.records();
  }

  /** Waits until every download started so far is saved or refused. */
  settleDownloads(): Promise<void> {
    return this.parts.downloads.settled();
  }

  /** The page actions go to, for inspection (tests, diagnostics); the agent acts only through the methods above. */
  get activePage(): Page | null {
    return this.tabs.active;
  }

  /** How many pages (tabs) are open. */
  get pageCount(): number {
    return this.tabs.count;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.parts.context.close().catch(() => undefined);
      await this.parts.onClose?.().catch(() => undefined);
    })();
    return this.closing;
  }
}
