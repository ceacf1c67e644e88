/**
 * The status page's "Check models": the doctor, run on the server, at most once per 20 s (each
 * check sends a few small requests to the model endpoint, which may bill them).
 */
import type { ArgusConfig, BrowserApi } from "@/lib/foundation/config";
import { ArgusError } from "@/lib/foundation/errors";
import type { DoctorReport } from "@/lib/foundation/protocol/doctor";
import { runDoctor } from "./run-doctor";

export const MODEL_CHECK_INTERVAL_MS = 20_000;

export class ModelCheck {
  private lastStart = -Infinity;
  /** The check under way: a second click while it runs gets the same report, not a 429. */
  private running: Promise<DoctorReport> | null = null;

  constructor(
    private readonly settings: ArgusConfig["model"],
    private readonly now: () => number = Date.now,
    /** config.browser.api, so a computer-use browser model is checked through /responses. */
    private readonly browserApi: BrowserApi = "chat",
  ) {}

  async run(): Promise<DoctorReport> {
    if (this.running !== null) return this.running;
    const wait = this.lastStart + MODEL_CHECK_INTERVAL_MS - this.now();
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new ArgusError("rate_limited:model", `The models were checked a moment ago. Try again in ${seconds} s.`, { retryAfterSeconds: seconds });
    }
    this.lastStart = this.now();
    this.running = runDoctor(this.settings, { timeoutMs: 30_000, browserApi: this.browserApi }).finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
