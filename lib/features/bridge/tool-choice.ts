import path from "node:path";
import { z } from "zod";
import type { BlobStore } from "@/lib/engines/db/blobs";
import type { Db } from "@/lib/engines/db/database";
import { getSession } from "@/lib/engines/db/sessions";
import { storeExecutionImages } from "@/lib/engines/files/generated";
import { writeWorkspaceFile } from "@/lib/engines/files/workspace-fs";
import type { BridgeMethods } from "@/lib/engines/kernels/bridge";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import { imagePart, MAX_EDGE } from "@/lib/engines/llm/images";
import { sessionOfWorkspace, type ModelFor } from "./session-model";
import { separatingThreshold } from "./review-threshold";
import { buildCandidateRunner, candidateResult, RESULTS_MARKER, TryToolsReportSchema, type CandidateResult } from "./tool-runner";

/** Candidates run at a low threshold, so the person can raise it with the slider. */
const REVIEW_THRESHOLD = 0.05;
const PER_TOOL_SECONDS = 20;
/** Largest picture a cell may hand over for tool choice. */
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** The extension of a kernel-given name when it is a plain one, so the copy keeps its type hint. */
function imageExtension(ref: string): string {
  const ext = path.extname(ref).toLowerCase();
  return /^\.[a-z0-9]{1,5}$/.test(ext) ? ext : "";
}

const Params = z.object({
  task: z.string().min(1).max(2_000),
  images: z.array(z.string().min(1).max(500)).min(1).max(4),
  candidates: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).min(1).max(6),
});

const JUDGE_SYSTEM =
  "You choose the best vision tool for a task. You are given the task, the person's image, and what each candidate tool actually returned on it (run at a low confidence threshold). Pick the tool whose output best matches what the task needs; say what answer you expect, and the confidence threshold (box_threshold) above which its boxes are the right ones.";

interface ToolChoice {
  tool: string | null;
  box_threshold: number | null;
  reviewed: boolean;
  thoughts: string;
  predicted_answer: string;
  candidates: Record<string, { count: number; error?: string; seconds?: number }>;
}

/** What get_tool_for_task needs: kernels for the candidates, and where the review picture is stored. */
export interface ToolChoiceDeps {
  kernels: KernelRegistry;
  db: Db;
  blobs: BlobStore;
  /** The calling session's models (its choice in the chat, else the server's). */
  modelFor: ModelFor;
  /** Where session workspaces live (a calling kernel's directory names its session). */
  sessionsDir: string;
}


function summarise(name: string, r: CandidateResult): string {
  if (r.error) return `- ${name}: failed (${r.error})`;
  const top = r.detections.slice(0, 8).map((d) => `${d.label} ${d.score.toFixed(2)}`).join(", ");
  return `- ${name}: ${r.count} result(s)${top ? ` — ${top}` : ""}${r.summary ? ` — ${r.summary}` : ""}`;
}

/**
 * get_tool_for_task over the bridge: run the candidate tools the kernel found
 * (local retrieval over the catalogue) on the person's image in an isolated
 * kernel, let the judge model pick, and — with tool review on — let the person
 * choose the tool and the threshold, looking at every candidate's boxes.
 */
export function toolChoiceMethods(deps: ToolChoiceDeps): BridgeMethods {
  const { kernels } = deps;
  return {
    async get_tool_for_task(raw, ctx): Promise<ToolChoice> {
      const { task, images, candidates } = Params.parse(raw);
      const sessionId = sessionOfWorkspace(deps.sessionsDir, ctx.workspace);

      // The pictures the kernel handed over (under .argus/bridge/) are read
      // once, through workspace-fs: no link is followed, and every later use
      // (the candidates, the judge, the review card) gets these same bytes.
      const pictures = await Promise.all(images.map((ref) => ctx.readFile(ref, MAX_IMAGE_BYTES)));
      const results = await kernels.isolated(sessionId, async (kernel) => {
        // Flat names chosen here, so nothing the calling kernel wrote shapes a path.
        const names = pictures.map((_, i) => `task-image-${i}${imageExtension(images[i]!)}`);
        for (const [i, bytes] of pictures.entries()) {
          if (kernel.files) await kernel.files.push(names[i]!, bytes);
          else await writeWorkspaceFile(kernel.workspace, names[i]!, bytes);
        }
        const code = buildCandidateRunner(candidates, names[0]!, REVIEW_THRESHOLD, PER_TOOL_SECONDS);
        // The candidates' own model-backed calls count against the calling cell's budgets.
        const { execution } = await kernel.execute(code, { timeoutMs: (PER_TOOL_SECONDS * candidates.length + 30) * 1000, signal: ctx.signal, bridgeMeter: ctx.meter });
        const line = execution.stdout.split("\n").find((l) => l.startsWith(RESULTS_MARKER));
        if (!line) throw new Error(`The candidate tools could not be run: ${execution.error?.value ?? execution.stderr.slice(0, 300)}`);
        const report = TryToolsReportSchema.parse(JSON.parse(line.slice(RESULTS_MARKER.length)));
        return Object.fromEntries(candidates.map((c) => [c, candidateResult(report[c])])) as Record<string, CandidateResult>;
      });

      const usable = candidates.filter((c) => results[c] && !results[c]!.error);
      const overview = candidates.map((c) => summarise(c, results[c] ?? { count: 0, detections: [], error: "no result" })).join("\n");
      const counts = Object.fromEntries(candidates.map((c) => [c, { count: results[c]?.count ?? 0, ...(results[c]?.error ? { error: results[c]!.error } : {}), ...(results[c]?.seconds !== undefined ? { seconds: results[c]!.seconds } : {}) }]));
      if (usable.length === 0) {
        return { tool: null, box_threshold: null, reviewed: false, thoughts: `No candidate worked on this image:\n${overview}`, predicted_answer: "", candidates: counts };
      }

      const picture = await imagePart(pictures[0]!, { maxEdge: MAX_EDGE });
      const judged = await (await deps.modelFor(ctx)).callTool("judge", {
        system: JUDGE_SYSTEM,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: `Task: ${task}\n\nCandidates and what they returned:\n${overview}\n\nCall pick_tool.` },
              { type: "image", image: picture.image, mediaType: picture.mediaType },
            ],
          },
        ],
        tools: {
          pick_tool: {
            description: "Choose the best candidate tool for the task.",
            schema: z.object({
              best_tool: z.enum(usable as [string, ...string[]]),
              thoughts: z.string().min(1).max(4_000),
              predicted_answer: z.string().max(1_000),
              /** Where the review card's slider opens; without it, where the tool's boxes stop stacking. */
              box_threshold: z.number().min(0).max(1).optional(),
            }),
          },
        },
        signal: ctx.signal,
      });
      ctx.charge(judged.usage);
      const pick = judged.args;
      const choice: ToolChoice = { tool: pick.best_tool, box_threshold: null, reviewed: false, thoughts: pick.thoughts, predicted_answer: pick.predicted_answer, candidates: counts };

      const session = sessionId ? await getSession(deps.db, sessionId) : null;
      const reviewOn = session !== null && session.settings.toolReview !== false;
      // Only a cell inside a run can wait for the person.
      if (!sessionId || !reviewOn || !ctx.ask) return choice;

      const [stored] = await storeExecutionImages(deps, sessionId, { results: [{ data: { "image/png": pictures[0]!.toString("base64") }, isMain: false, viewed: false }], stdout: "", stderr: "", error: null }, "tool review");
      // The person may take their time: the cell's clock waits with them.
      const answer = await ctx.holdClock(ctx.ask({
        kind: "tool_review",
        prompt: `Which tool finds what you asked for (“${task}”)? The judge suggests ${pick.best_tool}. Slide the confidence until only the right boxes remain, then choose.`,
        payload: {
          image: stored?.url,
          width: stored?.width,
          height: stored?.height,
          candidates: usable.map((name) => ({ function_name: name, args: { box_threshold: REVIEW_THRESHOLD }, detections: results[name]!.detections })),
          // The card opens on the judge's pick at its threshold, not on the first tab at 0.05.
          suggested: {
            function_name: pick.best_tool,
            box_threshold: pick.box_threshold ?? separatingThreshold(results[pick.best_tool]!.detections, REVIEW_THRESHOLD),
          },
        },
      }));
      // The card answers with typed fields; words (typed in the chat instead) never choose a tool.
      const picked = answer.choice?.kind === "tool_review" && usable.includes(answer.choice.function_name) ? answer.choice : null;
      if (!picked) {
        return { ...choice, thoughts: `${choice.thoughts}\nThe person answered "${answer.text.slice(0, 200)}" instead of choosing a tool; keeping the judge's pick.` };
      }
      return { ...choice, tool: picked.function_name, box_threshold: picked.box_threshold, reviewed: true };
    },
  };
}
