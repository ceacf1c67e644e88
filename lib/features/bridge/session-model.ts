import path from "node:path";
import type { Db } from "@/lib/engines/db/database";
import { getSession } from "@/lib/engines/db/sessions";
import type { BridgeCallContext } from "@/lib/engines/kernels/bridge";
import type { ModelClient } from "@/lib/engines/llm/models";
import { chosenModels } from "@/lib/features/sessions/chosen-models";

/** The model client a kernel's call uses: its session's choice of models (the chat's picker), else the server's. */
export type ModelFor = (ctx: Pick<BridgeCallContext, "workspace">) => Promise<ModelClient>;

/** The session whose workspace made the call; isolated kernels have none. */
export function sessionOfWorkspace(sessionsDir: string, workspace: string): string | null {
  return path.dirname(path.resolve(workspace)) === path.resolve(sessionsDir) ? path.basename(workspace) : null;
}

export function sessionModelFor(model: ModelClient, db: Db, sessionsDir: string): ModelFor {
  return async (ctx) => {
    const sessionId = sessionOfWorkspace(sessionsDir, ctx.workspace);
    const session = sessionId ? await getSession(db, sessionId).catch(() => null) : null;
    return session ? model.withModels(chosenModels(session.settings)) : model;
  };
}
