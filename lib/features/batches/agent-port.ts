import { filesOfSession } from "@/lib/engines/db/files";
import { functionsOfSession } from "@/lib/engines/db/functions";
import { isArgusError } from "@/lib/foundation/errors";
import { startBatch, type BatchDeps } from "./service";

/**
 * The conversation agent's run_on_all_images ("now do it for all of them"):
 * the session's newest function over every image it was given. Answers with
 * the sentence the person reads; a refusal is a sentence too, never a failed run.
 */
export function batchStarter(deps: BatchDeps): (sessionId: string) => Promise<string> {
  return async (sessionId) => {
    const [latest] = await functionsOfSession(deps.db, sessionId);
    if (!latest) return "There is no function in this session to run yet: ask me to write one first.";
    const images = (await filesOfSession(deps.db, sessionId)).filter((f) => f.origin === "upload" && f.kind === "image");
    if (images.length === 0) return "This session has no uploaded images to run it on.";
    try {
      const batch = await startBatch(deps, sessionId, { name: latest.name }, { kind: "uploads", uploadIds: images.slice(0, deps.config.batches.maxFiles).map((f) => f.id) });
      const cut = images.length > batch.total ? ` (the first ${batch.total} of ${images.length}: a batch takes at most ${deps.config.batches.maxFiles})` : "";
      return `I started a batch run of \`${batch.functionName}\` (version ${batch.functionVersion}) on ${batch.total} images${cut}. Its progress and results table are in the preview pane, with CSV and JSON export.`;
    } catch (error) {
      if (isArgusError(error)) return `I could not start the batch run: ${error.message}`;
      throw error;
    }
  };
}
