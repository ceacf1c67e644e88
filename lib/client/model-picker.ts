/** The chat's model picker: role names in words, and the choice after one change. Pure. */
import type { ModelRole } from "@/lib/foundation/protocol/agent-cards";

const LABELS: Partial<Record<ModelRole, string>> = {
  conversation: "Conversation",
  planner: "Planner",
  coder: "Coder",
  vqa: "Picture questions",
  judge: "Tool judge",
  browser: "Browser",
};

export function roleLabel(role: ModelRole): string {
  return LABELS[role] ?? role.charAt(0).toUpperCase() + role.slice(1);
}

/** The whole choice with `role` set to `model`; an empty name gives the role back to the server's model. */
export function withChoice(chosen: Partial<Record<ModelRole, string>>, role: ModelRole, model: string): Partial<Record<ModelRole, string>> {
  const next = { ...chosen };
  if (model.trim() === "") delete next[role];
  else next[role] = model;
  return next;
}
