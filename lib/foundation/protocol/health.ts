/** `GET /api/health`, as the status page and monitoring read it. */
import type { ModelRole } from "@/lib/foundation/config";
import type { ModelHealth } from "./doctor";

export type JupyterStatus = "up" | "down" | "starting" | "off";

/** How a kernel's memory and process count are held: its own cgroup, or per-process rlimits. */
export type KernelLimitsKind = "cgroup-v2" | "cgroup-v1" | "rlimit";

export type IsolationKind = "bubblewrap" | "none" | "external";

export interface Health {
  ok: boolean;
  db: "up" | "down";
  jupyter: JupyterStatus;
  model: "configured" | "not_configured";
  /** How kernels are contained: bubblewrap, none (warned at start), or up to an external gateway. */
  isolation: IsolationKind;
  /** Whether the data directory has room for new work (below ARGUS_MIN_FREE_MB it is "low"). */
  disk: "ok" | "low" | "unknown";
  /**
   * How a kernel's memory and process count are held: its own cgroup (the whole
   * kernel), per-process rlimits only, "external" (the gateway's business) or
   * "none" (Jupyter off).
   */
  limits: KernelLimitsKind | "external" | "none";
  /**
   * Each role's model, from how its last call went (never probed: see `npm run doctor`):
   * ok, degraded (it needed retries, corrections, the text protocol, or habits undone: see
   * `modelNotes`) or down. The optional
   * `browser` role is listed only when a model is configured for it.
   */
  models: Partial<Record<ModelRole, ModelHealth>>;
  /**
   * Why a role is degraded by its model's habits (code in a markdown fence, `<think>` in the
   * text…: what Argus undid to read its replies). Absent when no model needed any.
   */
  modelNotes?: Partial<Record<ModelRole, string>>;
}

/**
 * What `GET /api/health` answers: Health, plus the kernels started ahead of need (ready, still
 * starting, the pool's size) and the sessions' live ones, absent when Jupyter is off. A pool below
 * its size is refilling, or short of memory. Kept apart from Health, whose every key the status page lists.
 */
export interface ServerHealth extends Health {
  kernels?: KernelPoolHealth;
  /**
   * The neural vision tools (issue #27): the engine's state, each model (loaded, or why not), the
   * memory its process holds and its inference queue (past `limit` waiting, calls get 429).
   */
  vision?: VisionToolsHealth;
  /**
   * Several instances (REDIS_URL): this instance's link to Redis. "down" leaves `ok` alone:
   * the database still serves every request; only live delivery from other instances waits.
   */
  redis?: "up" | "down";
  /** This instance's id in run leases (ARGUS_INSTANCE_ID, or made at start). */
  instance?: string;
}

export interface KernelPoolHealth {
  pooled: number;
  starting: number;
  poolSize: number;
  live: number;
}

export interface VisionToolsHealth {
  state: string;
  models: { name: string; loaded: boolean; error?: string }[];
  rssBytes: number;
  queue: { running: number; waiting: number; limit: number };
}
