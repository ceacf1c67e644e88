import { modelStatus, type ArgusConfig } from "@/lib/foundation/config";
import { pingDatabase, type Db } from "@/lib/engines/db/database";
import type { DiskSpace } from "@/lib/engines/db/disk-space";
import type { JupyterChoice } from "@/lib/engines/kernels/jupyter-backend-choice";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { RoleHealth } from "@/lib/engines/llm/role-health";
import type { ServerHealth } from "@/lib/foundation/protocol/health";
import type { RedisClient } from "@/lib/features/scale/redis";
import type { VisionTools } from "@/lib/features/vision-tools/port";

/** What /api/health and the status page report, read from the parts each time it is asked. */
export function healthReport(
  config: ArgusConfig,
  parts: {
    db: Db;
    disk: DiskSpace;
    jupyter: JupyterChoice;
    kernels: KernelRegistry | null;
    roleHealth: RoleHealth;
    vision: VisionTools;
    redis: RedisClient | null;
  },
): () => Promise<ServerHealth> {
  const { db, disk, jupyter, kernels, roleHealth, vision, redis } = parts;
  return async () => {
    const dbUp = await pingDatabase(db);
    const jupyterStatus = await jupyter.jupyter.status();
    const jupyterOk = jupyterStatus === "up" || jupyterStatus === "off";
    return {
      ok: dbUp && jupyterOk,
      db: dbUp ? "up" : "down",
      jupyter: jupyterStatus,
      model: modelStatus(config),
      isolation: jupyter.isolation.kind,
      limits: jupyter.limits.kind,
      disk: disk.freeBytes() === null ? "unknown" : disk.low() ? "low" : "ok",
      models: roleHealth.snapshot(),
      vision: vision.health(),
      ...(Object.keys(roleHealth.notes()).length > 0 ? { modelNotes: roleHealth.notes() } : {}),
      ...(kernels ? { kernels: { ...kernels.stats(), poolSize: config.kernels.poolSize } } : {}),
      ...(redis ? { redis: redis.isReady ? ("up" as const) : ("down" as const), instance: config.scale.instanceId } : {}),
    };
  };
}
