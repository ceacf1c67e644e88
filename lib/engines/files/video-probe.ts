/**
 * Measures an uploaded video by running python/media_probe.py (OpenCV) on it
 * and turns the first frame into a WebP thumbnail. Decoding untrusted video
 * happens in that child process, with a hard deadline, so a hostile or broken
 * file can crash or stall only the probe, never the server.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { z } from "zod";
import { ArgusError } from "@/lib/foundation/errors";
import { THUMBNAIL_EDGE } from "@/lib/engines/files/image-probe";

export interface VideoProbe {
  width: number;
  height: number;
  fps: number;
  frames: number;
  durationSec: number;
  thumbnail: Buffer;
  thumbnailMime: "image/webp";
}

export interface VideoProbeOptions {
  /** Python with cv2 and numpy; defaults to Debian's /usr/bin/python3. */
  python?: string;
  maxDurationSec: number;
  /** The probe is killed after this long; defaults to 20 s. */
  timeoutMs?: number;
  /** Refuse frames larger than this before decoding one; no limit when absent. */
  maxPixels?: number;
  /** Where the probe writes its thumbnail; defaults to the OS temp dir. */
  tmpDir?: string;
  /**
   * Defaults to python/media_probe.py under the working directory: the server
   * runs from the repo root, and Next's bundling makes import.meta.url point
   * into .next/, so the module's own location can't be trusted.
   */
  scriptPath?: string;
}

const DEFAULT_PYTHON = "/usr/bin/python3";
const DEFAULT_PROBE_TIMEOUT_MS = 20_000;

// Exit codes agreed with media_probe.py.
const EXIT_BAD_VIDEO = 2;
const EXIT_NO_TOOLING = 3;

// More than a probe ever prints; anything beyond is noise we refuse to buffer.
const MAX_OUTPUT_BYTES = 64 * 1024;

const probeResult = z.object({
  width: z.int().positive(),
  height: z.int().positive(),
  fps: z.number().nonnegative(),
  frames: z.int().nonnegative(),
  duration: z.number().nonnegative(),
});
const probeError = z.object({ error: z.string().min(1) });

interface ChildOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function badVideo(message: string, cause?: unknown): ArgusError {
  return new ArgusError("bad_request:upload", message, { field: "file", cause });
}

function serverCannotProbe(message: string, cause?: unknown): ArgusError {
  return new ArgusError("unavailable:upload", message, { field: "file", cause });
}

/** "310", "2.5": one decimal at most, rounded up so a limit is never shown as met. */
function formatSeconds(seconds: number): string {
  return String(Math.ceil(seconds * 10) / 10);
}

function runProbe(python: string, args: string[], timeoutMs: number): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    // No shell, and a bare environment: the child parses untrusted bytes and
    // has no business seeing the server's secrets.
    const child = spawn(python, args, {
      shell: false,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        NODE_ENV: process.env.NODE_ENV,
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        LANG: "C.UTF-8",
        HOME: os.tmpdir(),
      },
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < MAX_OUTPUT_BYTES) stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      // Keep the tail: the last lines explain a crash.
      stderr = (stderr + chunk).slice(-4096);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

function lastJsonLine(stdout: string): unknown {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function interpret(outcome: ChildOutcome, timeoutMs: number): z.infer<typeof probeResult> {
  if (outcome.timedOut) {
    throw badVideo(
      `Reading the video took longer than ${formatSeconds(timeoutMs / 1000)} s, so it was stopped; ` +
        "the file may be damaged.",
    );
  }
  const parsed = lastJsonLine(outcome.stdout);
  const cause = new Error(`media_probe exited with ${outcome.code ?? outcome.signal}: ${outcome.stderr}`);

  if (outcome.code === 0) {
    const result = probeResult.safeParse(parsed);
    if (result.success) return result.data;
    throw badVideo("The video could not be measured: it reports no usable width, height or length.", cause);
  }

  const reported = probeError.safeParse(parsed);
  if (reported.success && outcome.code === EXIT_BAD_VIDEO) throw badVideo(reported.data.error, cause);
  if (reported.success && outcome.code === EXIT_NO_TOOLING) throw serverCannotProbe(reported.data.error, cause);
  // Killed by a signal (a decoder crash on a hostile file) or died without a verdict.
  throw badVideo("The video could not be read: the decoder stopped on it, so the file is probably damaged.", cause);
}

async function thumbnailFrom(jpegPath: string): Promise<Buffer> {
  const jpeg = await readFile(jpegPath);
  return sharp(jpeg)
    .resize({ width: THUMBNAIL_EDGE, height: THUMBNAIL_EDGE, fit: "inside", withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}

export async function probeVideo(filePath: string, options: VideoProbeOptions): Promise<VideoProbe> {
  const python = options.python ?? DEFAULT_PYTHON;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const script = options.scriptPath ?? path.join(process.cwd(), "python", "media_probe.py");
  const workDir = await mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), "argus-probe-"));
  const thumbPath = path.join(workDir, "first-frame.jpg");

  try {
    const args = [script, filePath, thumbPath];
    if (options.maxPixels !== undefined) args.push("--max-pixels", String(Math.floor(options.maxPixels)));

    let outcome: ChildOutcome;
    try {
      outcome = await runProbe(python, args, timeoutMs);
    } catch (error) {
      throw serverCannotProbe(`Videos can't be checked on this server: ${python} could not be started.`, error);
    }
    const probe = interpret(outcome, timeoutMs);

    if (probe.duration > options.maxDurationSec) {
      throw new ArgusError(
        "payload_too_large:upload",
        `The video is ${formatSeconds(probe.duration)} s long; the limit is ${options.maxDurationSec} s.`,
        { field: "file" },
      );
    }

    return {
      width: probe.width,
      height: probe.height,
      fps: probe.fps,
      frames: probe.frames,
      durationSec: probe.duration,
      thumbnail: await thumbnailFrom(thumbPath),
      thumbnailMime: "image/webp",
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
