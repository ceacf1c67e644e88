import { keepCoderResult } from "@/lib/features/functions/keep-function";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import { CodeContextSchema } from "@/lib/foundation/protocol/contexts";
import type { AgentDescriptor } from "../descriptor";
import { CoderAgent, describeCode } from "./agent";
import { CoderDelegationSchema } from "./inputs";
import { coderTools, fixTools, testTools } from "./tools";

/** VisionAgentCoderV2: turns a plan (or an edit request) into one tested function, kept as the session's function. */
export const coderDescriptor: AgentDescriptor<typeof CoderDelegationSchema> = {
  card: agentCard("coder")!,
  tools: { write: coderTools, test: testTools, fix: fixTools },
  inputs: CoderDelegationSchema,
  outputs: CodeContextSchema,
  async make(inputs, { deps, uploads }) {
    // The brief names every upload of the session, whichever the code is tested on.
    const files = (await uploads(inputs.uploads)).all.map((f) => f.name);
    const common = { files, catalogue: deps.catalogue };
    return new CoderAgent(
      inputs.mode === "plan"
        ? { mode: "plan", task: inputs.task, uploads: inputs.uploads ?? [], ...common }
        : { mode: "edit", feedback: inputs.feedback, code: inputs.code, test: inputs.test, ...common },
    );
  },
  describeOutputs: describeCode,
  async onFinish({ db, log }, { sessionId, runId, outputs }) {
    // Keeping the function must never end the run that made it: the code is in the chat either way.
    await keepCoderResult(db, { sessionId, runId, outputs, now: new Date().toISOString() }).catch((error: unknown) =>
      log(`[functions] could not keep the coder's function: ${String(error)}`),
    );
  },
};
