import type { ModelRole } from "./agent-cards";

/** `GET /api/models`: what the chat's model picker offers. */
export interface ModelChoices {
  /** What the endpoint lists (`GET /v1/models`), sorted. */
  models: string[];
  /** Every model role, in the status pages' order, with the model this server uses for it. */
  roles: { role: ModelRole; serverModel: string | null }[];
}
