import { createHash, randomUUID } from "node:crypto";

/**
 * Workspace files moved through the kernel itself (ARGUS_WORKSPACE_TRANSPORT=kernel), for a
 * kernel host that does not share Argus's data directory. Each step is a silent cell calling
 * python/argus/workspace_transfer.py, which prints one marked JSON line back. Writes are staged
 * and renamed into place only once the kernel side has verified their sha256; reads are capped
 * before the first byte moves and verified here against the sha256 the kernel reported. What
 * comes back is untrusted bytes: callers validate type and size like any upload.
 */

/** Runs one silent cell, with metadata on its request, and returns its stdout (KernelHandle.runSilent). */
export type SilentRunner = (code: string, metadata?: Record<string, string>) => Promise<{ stdout: string; error: string | null }>;

/** The execute request's metadata key that carries a chunk (python/argus/workspace_transfer.py). */
export const CHUNK_METADATA_KEY = "argus_transfer_data";

/** One transfer operation on the kernel side, answered with its result (or a KernelTransferError). */
export type TransferCall = (op: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

export const TRANSFER_MARKER = "\u001eargus-transfer:";
/** Raw bytes per cell: 512 KiB travel as ~700 KB of base64 source, well under any message limit. */
export const DEFAULT_CHUNK_BYTES = 512 * 1024;

/** A transfer the kernel side refused or that failed its checks; the message is for people. */
export class KernelTransferError extends Error {
  override name = "KernelTransferError";
}

/** Pure: the cell that runs one transfer operation (arguments travel as a JSON string literal). */
export function transferCode(op: string, args: Record<string, unknown>): string {
  return `__import__("argus.workspace_transfer", fromlist=["run"]).run(${JSON.stringify(op)}, ${JSON.stringify(JSON.stringify(args))})`;
}

/** Pure: the operation's result from the cell's stdout, or the refusal as an error. */
export function parseTransferAnswer(stdout: string, error: string | null): Record<string, unknown> {
  const line = stdout.split("\n").find((l) => l.startsWith(TRANSFER_MARKER));
  if (!line) {
    const why = error ?? "it printed no answer";
    throw new KernelTransferError(`The kernel could not move the file (${why.slice(0, 300)}). Is the argus package importable in the remote kernel?`);
  }
  let answer: { result?: Record<string, unknown>; error?: string };
  try {
    answer = JSON.parse(line.slice(TRANSFER_MARKER.length)) as typeof answer;
  } catch {
    throw new KernelTransferError("The kernel's answer to a file transfer was not valid JSON.");
  }
  if (typeof answer.error === "string") throw new KernelTransferError(`The kernel refused the file transfer: ${answer.error}`);
  if (!answer.result || typeof answer.result !== "object") throw new KernelTransferError("The kernel's answer to a file transfer had no result.");
  return answer.result;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Transfer operations as silent cells, between cells (uploads, quota, isolated kernels). With
 * `chunksInMetadata` (a real kernel) a chunk travels in the request's metadata rather than in
 * the cell's source, which IPython would transform and compile: ~10x the throughput.
 */
export function silentTransfer(run: SilentRunner, options: { chunksInMetadata?: boolean } = {}): TransferCall {
  return async (op, args) => {
    const { data, ...rest } = args;
    const viaMetadata = options.chunksInMetadata === true && typeof data === "string";
    const { stdout, error } = viaMetadata ? await run(transferCode(op, rest), { [CHUNK_METADATA_KEY]: data }) : await run(transferCode(op, args));
    return parseTransferAnswer(stdout, error);
  };
}

export class KernelFiles {
  constructor(
    private readonly transfer: TransferCall,
    private readonly chunkBytes = DEFAULT_CHUNK_BYTES,
  ) {}

  private call(op: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.transfer(op, args);
  }

  /** Makes the session's workspace on the kernel host the kernel's current directory. */
  async enter(session: string): Promise<void> {
    await this.call("enter", { session });
  }

  /** Writes `bytes` as `name` at the top of the workspace: chunked, then checked and renamed into place. */
  async push(name: string, bytes: Uint8Array): Promise<void> {
    const token = randomUUID().replace(/-/g, "");
    await this.call("begin", { token });
    for (let offset = 0; offset < bytes.length; offset += this.chunkBytes) {
      const chunk = Buffer.from(bytes.subarray(offset, offset + this.chunkBytes)).toString("base64");
      await this.call("append", { token, data: chunk, max_bytes: bytes.length });
    }
    await this.call("commit", { token, name, sha256: sha256Hex(bytes), size: bytes.length });
  }

  /** Names (of `{name: sha256}`) the workspace has not received yet. */
  async missing(files: Record<string, string>): Promise<string[]> {
    const result = await this.call("missing", { files });
    return Array.isArray(result.missing) ? result.missing.filter((n): n is string => typeof n === "string") : [];
  }

  /** A workspace file's bytes, refused past `maxBytes` and verified against the kernel's sha256. */
  async pull(relativePath: string, maxBytes: number): Promise<Buffer> {
    const info = await this.call("stat", { path: relativePath, max_bytes: maxBytes });
    const size = Number(info.size);
    const expected = String(info.sha256);
    if (!Number.isInteger(size) || size < 0 || size > maxBytes) {
      throw new KernelTransferError(`'${relativePath}' is too large to bring back (${size} bytes; at most ${maxBytes}).`);
    }
    const parts: Buffer[] = [];
    let received = 0;
    while (received < size) {
      const { data } = await this.call("read", { path: relativePath, offset: received, length: Math.min(this.chunkBytes, size - received) });
      const chunk = Buffer.from(String(data), "base64");
      if (chunk.length === 0) break;
      received += chunk.length;
      if (received > size) break;
      parts.push(chunk);
    }
    const bytes = Buffer.concat(parts);
    if (bytes.length !== size || sha256Hex(bytes) !== expected) {
      throw new KernelTransferError(`'${relativePath}' changed or was damaged while it was read back (checksum mismatch); it was not used.`);
    }
    return bytes;
  }

  /** Disk the workspace takes on the kernel host (for the workspace quota). */
  async usage(maxEntries: number): Promise<{ bytes: number; entries: number; partial: boolean }> {
    const r = await this.call("usage", { max_entries: maxEntries });
    return { bytes: Number(r.bytes) || 0, entries: Number(r.entries) || 0, partial: r.partial === true };
  }

  /** Removes the workspace on the kernel host (the session was deleted). */
  async discard(): Promise<void> {
    await this.call("discard");
  }
}
