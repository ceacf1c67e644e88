/**
 * `npm run doctor` and the status page's check: probe each configured model once (roles that
 * share a model share its probe) and judge every role.
 */
import { MODEL_ROLES, REQUIRED_ROLES, type ArgusConfig, type BrowserApi, type ModelRole } from "@/lib/foundation/config";
import { effectiveBaseUrl } from "@/lib/engines/llm/endpoint";
import type { DoctorReport, ModelProbe } from "@/lib/foundation/protocol/doctor";
import { probeModel, probeResponsesModel } from "./probe";
import { combinedNeeds } from "./role-needs";
import { judgeRole } from "./verdict";

export interface DoctorOptions {
  timeoutMs?: number;
  /** config.browser.api: `responses` probes the browser role through /responses, not Chat Completions. */
  browserApi?: BrowserApi;
}

export async function runDoctor(settings: ArgusConfig["model"], options: DoctorOptions = {}): Promise<DoctorReport> {
  const baseUrl = effectiveBaseUrl(settings);
  // The optional browser role is checked when it has a model; leaving it out is not a fault.
  const ROLES: ModelRole[] = MODEL_ROLES.filter((role) => REQUIRED_ROLES.includes(role) || (settings.byRole[role] ?? null) !== null);
  // A browser role on the Responses API is probed on its own: its model does no Chat Completions.
  const viaResponses = (role: ModelRole) => role === "browser" && options.browserApi === "responses";
  const byModel = new Map<string, ModelRole[]>();
  for (const role of ROLES) {
    const model = settings.byRole[role] ?? null;
    if (model !== null && !viaResponses(role)) byModel.set(model, [...(byModel.get(model) ?? []), role]);
  }
  const target = (model: string) => ({ baseUrl, apiKey: settings.apiKey, model, timeoutMs: options.timeoutMs ?? 60_000 });
  const probes = new Map<string, ModelProbe>();
  // One after another: a local server loads one model at a time anyway.
  for (const [model, roles] of byModel) {
    probes.set(model, await probeModel(target(model), combinedNeeds(roles)));
  }
  const browserModel = settings.byRole.browser ?? null;
  const responsesProbe = viaResponses("browser") && browserModel !== null && ROLES.includes("browser") ? await probeResponsesModel(target(browserModel)) : null;
  const fixes: string[] = [];
  const rows = ROLES.map((role) => {
    const model = settings.byRole[role] ?? null;
    const probe = model === null ? null : viaResponses(role) ? responsesProbe : probes.get(model)!;
    const judged = judgeRole(role, model, probe, baseUrl);
    for (const fix of judged.fixes) if (!fixes.includes(fix)) fixes.push(fix);
    return { role, model, probe, verdict: judged.verdict };
  });
  return { baseUrl, rows, fixes, ok: rows.every((r) => r.verdict !== "down") };
}
