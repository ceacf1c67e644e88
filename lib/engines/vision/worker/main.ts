/**
 * A vision worker thread: loads a model family the first time one of its tools
 * is called, keeps it warm, and runs one call at a time (the service never sends
 * a second before the first is answered).
 */
import { parentPort } from "node:worker_threads";
import { FAMILY_MODELS, type VisionFamily } from "../catalogue";
import type { RunRequest, WorkerReply } from "../protocol";
import { loadFamily, type FamilyRunner } from "./families";

const port = parentPort;
if (!port) throw new Error("lib/engines/vision/worker/main.ts runs only as a worker thread");

const loaded = new Map<VisionFamily, Promise<FamilyRunner>>();

function send(reply: WorkerReply): void {
  port!.postMessage(reply);
}

function family(name: VisionFamily): Promise<FamilyRunner> {
  let runner = loaded.get(name);
  if (!runner) {
    send({ type: "model", family: name, models: FAMILY_MODELS[name], state: "loading" });
    runner = loadFamily(name).then(
      (ready) => {
        send({ type: "model", family: name, models: FAMILY_MODELS[name], state: "loaded" });
        return ready;
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        send({ type: "model", family: name, models: FAMILY_MODELS[name], state: "failed", error: message });
        throw error;
      },
    );
    loaded.set(name, runner);
  }
  return runner;
}

port.on("message", async (request: RunRequest) => {
  let runner: FamilyRunner;
  try {
    runner = await family(request.family);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    send({ type: "error", id: request.id, code: "unavailable", message: `the ${request.family} model could not be loaded: ${reason}` });
    return;
  }
  const started = performance.now();
  try {
    const result = await runner(request.tool, request.image, request.params);
    send({ type: "done", id: request.id, result, seconds: (performance.now() - started) / 1000 });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    send({ type: "error", id: request.id, code: "failed", message: `${request.tool} failed while running its model: ${reason}` });
  }
});
