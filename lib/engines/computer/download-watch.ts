/**
 * Holds downloads to the size cap while they are still arriving, so a site
 * cannot fill the disk before the finished file is checked. Chromium writes
 * each download into the browser's downloads directory as `<id>.crdownload`;
 * this polls their sizes and cancels a download past the cap.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Download } from "playwright-core";

/**
 * Playwright names a download's file after its id but does not expose it, so
 * it is read from the artifact (playwright-core is pinned to an exact version;
 * tests/integration/computer-downloads.test.ts fails if this stops working). When it can't be
 * read, any file past the cap stops every such unmatched download: the safe side.
 */
function fileIdOf(download: Download): string | null {
  const absolute = (download as unknown as { _artifact?: { _initializer?: { absolutePath?: unknown } } })._artifact?._initializer?.absolutePath;
  return typeof absolute === "string" ? path.basename(absolute) : null;
}

interface Tracked {
  id: string | null;
  onTooLarge: () => void;
}

export class DownloadSizeWatch {
  private readonly tracked = new Map<Download, Tracked>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
    private readonly intervalMs = 200,
  ) {}

  /** Watches a download until the returned function is called; `onTooLarge` runs before it is cancelled. */
  track(download: Download, onTooLarge: () => void): () => void {
    this.tracked.set(download, { id: fileIdOf(download), onTooLarge });
    this.timer ??= setInterval(() => void this.poll(), this.intervalMs);
    return () => {
      this.tracked.delete(download);
      if (this.tracked.size === 0) this.stop();
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async sizes(): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      const size = await stat(path.join(this.dir, name)).then((s) => s.size, () => 0);
      sizes.set(name.replace(/\.crdownload$/, ""), size);
    }
    return sizes;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const sizes = await this.sizes();
      const largest = Math.max(0, ...sizes.values());
      for (const [download, { id, onTooLarge }] of this.tracked) {
        const size = id === null ? largest : (sizes.get(id) ?? 0);
        if (size <= this.maxBytes) continue;
        this.tracked.delete(download);
        onTooLarge();
        await download.cancel().catch(() => undefined);
      }
    } finally {
      this.polling = false;
    }
  }
}
