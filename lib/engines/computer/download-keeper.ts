/**
 * One session's downloads: each lands in the session's directory under a safe
 * name (download-file.ts), held to the size cap while it arrives
 * (download-watch.ts), and is recorded in a sentence the agent can pass on.
 */
import type { Download, Page } from "playwright-core";
import type { DownloadRecord } from "./computer-types";
import { DownloadTooLarge, saveDownload } from "./download-file";
import type { DownloadSizeWatch } from "./download-watch";

export interface DownloadKeeperOptions {
  /** Where files land: the session's workspace, given by the caller. */
  dir: string;
  maxBytes: number;
  watch: DownloadSizeWatch;
}

const quoted = (name: string) => JSON.stringify(name.slice(0, 120));

function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export class DownloadKeeper {
  private readonly kept: DownloadRecord[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly o: DownloadKeeperOptions) {}

  attach(page: Page): void {
    page.on("download", (download) => {
      const saving = this.keep(download).finally(() => this.pending.delete(saving));
      this.pending.add(saving);
    });
  }

  /** Every download of the session so far, oldest first. */
  records(): readonly DownloadRecord[] {
    return this.kept;
  }

  /** Resolves once every download started so far is saved or refused. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async keep(download: Download): Promise<void> {
    const url = download.url();
    const suggestedName = download.suggestedFilename();
    const base = { url, suggestedName, name: null, path: null, bytes: 0 };
    let stoppedForSize = false;
    const untrack = this.o.watch.track(download, () => {
      stoppedForSize = true;
    });
    const tooLarge = (): DownloadRecord => ({
      ...base,
      status: "too_large",
      message: `The download of ${quoted(suggestedName)} was stopped: it is ${new DownloadTooLarge(this.o.maxBytes).message}.`,
    });
    try {
      const source = await download.path().catch(() => null);
      if (source === null || stoppedForSize) {
        const failure = stoppedForSize ? null : await download.failure().catch(() => null);
        this.kept.push(stoppedForSize ? tooLarge() : { ...base, status: "failed", message: `The download of ${quoted(suggestedName)} failed${failure ? ` (${failure})` : ""}.` });
        return;
      }
      const saved = await saveDownload(this.o.dir, suggestedName, source, this.o.maxBytes);
      this.kept.push({ ...base, status: "saved", ...saved, message: `Downloaded ${quoted(suggestedName)} as ${quoted(saved.name)} (${sizeWords(saved.bytes)}) into the workspace.` });
    } catch (error) {
      if (error instanceof DownloadTooLarge) this.kept.push(tooLarge());
      else this.kept.push({ ...base, status: "failed", message: `The download of ${quoted(suggestedName)} could not be saved (${(error as Error).message}).` });
    } finally {
      untrack();
      await download.delete().catch(() => undefined);
    }
  }
}
