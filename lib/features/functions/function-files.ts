/**
 * Files crossing a function kernel's workspace: the call's inputs going in (staged under Argus's
 * own names), the pictures the function saved coming back as the session's generated files.
 */
import path from "node:path";
import { storeGeneratedImage } from "@/lib/engines/files/generated";
import { workspaceName } from "@/lib/engines/files/workspace-path";
import { readWorkspaceFile, writeWorkspaceFile } from "@/lib/engines/files/workspace-fs";
import type { KernelHandle } from "@/lib/engines/kernels/kernel-handle";
import { stagedInputName, type FunctionError } from "./function-outcome";
import type { FunctionImage, FunctionInput, FunctionLimits, FunctionRunnerDeps, FunctionSource } from "./function-runner-types";

const IMAGE_EXT = new Map([
  [".png", "image/png"],
  [".jpg", "image/jpeg"],
  [".jpeg", "image/jpeg"],
] as const);

/** Names Argus keeps in a function kernel's workspace (staged inputs, saved pictures moved aside). */
const ARGUS_OWN_PREFIX = ".argus-";

/** Writes a chunk's inputs into the kernel's workspace; returns the items that could not be given, with why. */
export async function writeInputs(kernel: KernelHandle, inputs: readonly FunctionInput[]): Promise<Map<number, FunctionError>> {
  const refused = new Map<number, FunctionError>();
  await Promise.all(
    inputs.map(async (input, n) => {
      try {
        workspaceName(input.name); // the name the function sees: a plain file name
        // …and not one of Argus's own in the workspace: renamed in at its turn, `.argus-input-1`
        // would overwrite the next item's staged input, and that item would run on this file.
        if (input.name.startsWith(ARGUS_OWN_PREFIX)) throw new Error(`names starting with ${ARGUS_OWN_PREFIX} are Argus's own in the kernel's workspace; rename the file`);
        // Through the kernel when its host does not share Argus's disk (ARGUS_WORKSPACE_TRANSPORT=kernel).
        if (kernel.files) await kernel.files.push(stagedInputName(n), input.bytes);
        else await writeWorkspaceFile(kernel.workspace, stagedInputName(n), input.bytes);
      } catch (error) {
        refused.set(n, { kind: "bad_input", message: `The file could not be given to the function: ${(error as Error).message}` });
      }
    }),
  );
  return refused;
}

/** Stores the pictures the function saved (at most maxImages, PNG or JPEG), in order. */
export async function storeSavedImages(deps: FunctionRunnerDeps, fn: FunctionSource, kernel: KernelHandle, names: string[], limits: FunctionLimits): Promise<FunctionImage[]> {
  const images: FunctionImage[] = [];
  for (const name of names) {
    if (images.length >= limits.maxImages) break;
    const mime = IMAGE_EXT.get(path.extname(name).toLowerCase() as ".png");
    if (!mime) continue;
    let bytes: Buffer;
    try {
      bytes = kernel.files ? await kernel.files.pull(name, limits.maxImageBytes) : await readWorkspaceFile(kernel.workspace, name, { maxBytes: limits.maxImageBytes });
    } catch {
      continue; // too big, a link, gone: not an image the function gave us
    }
    // The kernel moved it aside as `.argus-saved/<index>-<name>`; people see the name it gave.
    const shown = path.basename(name).replace(/^\d+-/, "");
    // Header checked now; decoded whole (and its thumbnail made) when first requested.
    const stored = await storeGeneratedImage(deps, fn.sessionId, bytes, { name: shown, mime, label: `${fn.name}: ${shown}` }, { thumbnail: "lazy" });
    if (stored) images.push({ fileId: stored.fileId, url: stored.url, name: shown });
  }
  return images;
}
