/** `npm run doctor` and the status page's "Check models": one row per role, and the fixes. */
import { z } from "zod";
import type { ModelRole } from "@/lib/foundation/config";

/** `POST /api/models/check` takes no options: an empty body, or `{}`. */
export const ModelCheckBody = z.strictObject({});

/** How a role's model is doing: ok, usable with a workaround (degraded), or not usable (down). */
export type ModelHealth = "ok" | "degraded" | "down";

export type Check = "yes" | "no" | "unknown" | "n/a";

export interface ModelProbe {
  /** The endpoint answered at all. */
  reachable: boolean;
  /** Why not, in plain words ("connection refused"). */
  unreachableReason?: string;
  /** Listed by `GET /models`; unknown when the endpoint lists nothing. */
  known: Check;
  /** What `GET /models` lists, when the model is not among them. */
  served?: string[];
  /** Which tool protocol works: native tool calls, tagged text, or neither. */
  tools: "native" | "text" | "none" | "n/a";
  /** What the endpoint said when tools failed or were refused. */
  toolsDetail?: string;
  images: Check;
  imagesDetail?: string;
  streaming: Check;
  /** The endpoint refused the key (401/403). */
  authFailed?: boolean;
  /**
   * Probed through the Responses API (`POST /responses` with the computer tool) because the role
   * speaks it (a computer-use browser model, ARGUS_BROWSER_API): `tools` says whether the computer
   * tool was accepted, and streaming is not used.
   */
  api?: "responses";
}

export interface DoctorRow {
  role: ModelRole;
  /** null when no model is configured for the role. */
  model: string | null;
  probe: ModelProbe | null;
  verdict: ModelHealth;
}

export interface DoctorReport {
  baseUrl: string;
  rows: DoctorRow[];
  /** One sentence per problem, each saying what to do. */
  fixes: string[];
  /** Every role is usable (ok or degraded). */
  ok: boolean;
}
