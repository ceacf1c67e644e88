import type { ArgusConfig } from "@/lib/foundation/config";
import { modelBridgeMethods } from "@/lib/features/bridge/model-tools";
import { sessionModelFor } from "@/lib/features/bridge/session-model";
import { toolChoiceMethods } from "@/lib/features/bridge/tool-choice";
import { registerBridgeMethods, type BridgeMethods } from "@/lib/engines/kernels/bridge";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { ModelClient } from "@/lib/engines/llm/models";
import { createVisionService, type VisionService } from "@/lib/engines/vision/service";
import { visionBridgeMethods } from "@/lib/features/vision-tools/bridge-method";
import type { Storage } from "./storage";

/**
 * The kernel's calls back into the server, added to the bridge once what they use exists: the
 * neural vision tools (they need no model endpoint: they run on this machine), then the
 * model-backed ones. Returns the vision service, which HTTP serves as well.
 */
export function addKernelCalls(
  config: ArgusConfig,
  bridge: BridgeMethods,
  parts: Pick<Storage, "db" | "blobs"> & { kernels: KernelRegistry | null; model: ModelClient | null },
): VisionService {
  const { db, blobs, kernels, model } = parts;
  const vision = createVisionService({ workers: config.vision.workers, queueLimit: config.vision.queueLimit });
  registerBridgeMethods(bridge, visionBridgeMethods(vision, config.limits.maxUploadBytes));
  if (model) {
    // A kernel's model calls use its session's choice of models (the chat's picker).
    const modelFor = sessionModelFor(model, db, config.sessionsDir);
    registerBridgeMethods(bridge, modelBridgeMethods(modelFor));
    if (kernels) registerBridgeMethods(bridge, toolChoiceMethods({ kernels, db, blobs, modelFor, sessionsDir: config.sessionsDir }));
  }
  return vision;
}
