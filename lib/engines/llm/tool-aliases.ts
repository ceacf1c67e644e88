/**
 * Tool names models are trained on for the jobs of Argus's tools. A model that calls `python`
 * or `final_answer` means `execute_python` or the conversation's `reply`; when its arguments fit
 * the real tool they are mapped (tool-call-habits.ts), otherwise the correction lists the real
 * names. Listed in the README ("Using a real model"). Pure.
 */

export const TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  execute_python: ["python", "run_code", "code_interpreter", "ipython"],
  reply: ["final_answer", "answer"],
};

const TARGET_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(TOOL_ALIASES).flatMap(([target, aliases]) => aliases.map((alias) => [alias, target] as const)),
);

/** The offered tool `name` stands for: itself when offered, else its alias's target when that is offered. */
export function resolveToolName(name: string, offered: readonly string[]): string | undefined {
  if (offered.includes(name)) return name;
  const target = TARGET_OF.get(name);
  return target !== undefined && offered.includes(target) ? target : undefined;
}

/** The aliases of the offered tools (not themselves offered), for reading calls written as tags. */
export function aliasesOf(offered: readonly string[]): string[] {
  return offered.flatMap((name) => (TOOL_ALIASES[name] ?? []).filter((alias) => !offered.includes(alias)));
}
