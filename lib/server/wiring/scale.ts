import type { ArgusConfig } from "@/lib/foundation/config";
import { connectInBackground, createRedisClient, type RedisClient } from "@/lib/features/scale/redis";
import { RunCommandBus } from "@/lib/features/scale/run-command-bus";

export interface ScaleParts {
  /** The Redis client (REDIS_URL), for the Socket.io adapter; null for a lone instance. */
  redis: RedisClient | null;
  /** Commands for a run or a batch owned by another instance travel there over Redis; null alone. */
  bus: RunCommandBus | null;
}

/** Several instances (REDIS_URL): the Redis client and the command bus between instances. */
export function buildScale(config: ArgusConfig, log: (line: string) => void): ScaleParts {
  const redis = config.scale.redisUrl ? createRedisClient(config.scale.redisUrl, log) : null;
  if (redis) connectInBackground(redis, log);
  // loadConfig refuses REDIS_URL without ARGUS_CLUSTER_SECRET; a hand-made config must not slip past.
  if (redis && !config.scale.clusterSecret) throw new Error("Invalid configuration: ARGUS_CLUSTER_SECRET: REDIS_URL is set but ARGUS_CLUSTER_SECRET is not");
  const bus = redis ? new RunCommandBus(redis, config.scale.instanceId, config.scale.clusterSecret!, log) : null;
  return { redis, bus };
}
