/**
 * `npm run doctor`'s look at JUPYTER_URL and JUPYTER_TOKEN: can Argus reach the server, does it
 * take the token, does it offer the kernelspec Argus will start. The judging is pure (below) so
 * each answer's wording is unit-tested; `checkJupyter` only does the two requests.
 */
import type { ArgusConfig } from "@/lib/foundation/config";
import { ARGUS_KERNEL_NAME } from "@/lib/engines/kernels/kernelspec";
import { networkReason } from "./network-reason";

export interface JupyterCheck {
  ok: boolean;
  /** What was found, one plain sentence each. */
  lines: string[];
}

/** What one request to the server came back with (status -1: no answer at all, with the reason). */
export interface JupyterAnswer {
  status: number;
  body: string;
  networkError?: string;
}

/** Said whenever Argus uses a Jupyter it does not start: its kernels' containment is not Argus's. */
export const EXTERNAL_SANDBOX_CAVEAT =
  "Sandbox: Argus does not start these kernels, so it cannot put them in its bubblewrap sandbox or set their memory and process limits; " +
  "their isolation is whatever the Jupyter operator configured. Cell timeouts, output caps and model-call budgets are still enforced by Argus.";

export function judgeJupyter(
  target: { url: string; kernelName: string; transport: "shared" | "kernel" },
  specs: JupyterAnswer,
): JupyterCheck {
  const lines: string[] = [];
  let ok = false;
  if (specs.status === -1) {
    lines.push(`Jupyter at ${target.url}: cannot reach it (${specs.networkError ?? "no answer"}). Check JUPYTER_URL and that the server is running and reachable from this machine.`);
  } else if (specs.status === 401 || specs.status === 403) {
    lines.push(`Jupyter at ${target.url}: the server refused JUPYTER_TOKEN (HTTP ${specs.status}). Set JUPYTER_TOKEN to the token that server was started with.`);
  } else if (specs.status === 404) {
    lines.push(`Jupyter at ${target.url}: no Jupyter REST API there (HTTP 404 for /api/kernelspecs). Include the server's base path in JUPYTER_URL if it has one.`);
  } else if (specs.status < 200 || specs.status >= 300) {
    lines.push(`Jupyter at ${target.url}: the server answered HTTP ${specs.status}: ${specs.body.slice(0, 200)}`);
  } else {
    const names = kernelspecNames(specs.body);
    if (names === null) {
      lines.push(`Jupyter at ${target.url}: /api/kernelspecs did not answer with Jupyter's JSON; is JUPYTER_URL a Jupyter Server or Kernel Gateway?`);
    } else if (!names.includes(target.kernelName) && target.kernelName === ARGUS_KERNEL_NAME) {
      lines.push(
        `Jupyter at ${target.url}: reachable and the token works, but it has no kernelspec "${ARGUS_KERNEL_NAME}" (it offers: ${names.join(", ") || "none"}). Install Argus's kernelspec on that host: \`node --import tsx scripts/jupyter-host.ts\` runs a server with it (as deploy/compose.yaml does), or writes it alone with --kernelspec-only (docs/kernels.md). Kernels of another spec start without Argus's helpers and sandbox.`,
      );
    } else if (!names.includes(target.kernelName)) {
      lines.push(
        `Jupyter at ${target.url}: reachable and the token works, but it has no kernelspec "${target.kernelName}" (it offers: ${names.join(", ") || "none"}). Set ARGUS_KERNEL_NAME to one of those.`,
      );
    } else {
      ok = true;
      lines.push(`Jupyter at ${target.url}: reachable, the token works, kernelspec "${target.kernelName}" is offered.`);
    }
  }
  lines.push(
    target.transport === "kernel"
      ? "Workspace: files travel through the kernel (ARGUS_WORKSPACE_TRANSPORT=kernel); the kernel host needs no access to Argus's data directory."
      : "Workspace: ARGUS_WORKSPACE_TRANSPORT=shared, so the kernels must see Argus's data directory at the same path. If the Jupyter host has its own disk, set ARGUS_WORKSPACE_TRANSPORT=kernel.",
  );
  lines.push(EXTERNAL_SANDBOX_CAVEAT);
  return { ok, lines };
}

function kernelspecNames(body: string): string[] | null {
  try {
    const parsed = JSON.parse(body) as { kernelspecs?: Record<string, unknown> };
    if (!parsed || typeof parsed.kernelspecs !== "object" || parsed.kernelspecs === null) return null;
    return Object.keys(parsed.kernelspecs);
  } catch {
    return null;
  }
}

/** Asks the configured external Jupyter for its kernelspecs with the token, and judges the answer. */
export async function checkJupyter(config: ArgusConfig, timeoutMs = 10_000): Promise<JupyterCheck | null> {
  if (config.jupyter.mode !== "external") return null;
  const { url, token } = config.jupyter;
  let answer: JupyterAnswer;
  try {
    const res = await fetch(`${url}/api/kernelspecs`, {
      headers: token ? { authorization: `token ${token}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    answer = { status: res.status, body: await res.text() };
  } catch (error) {
    answer = { status: -1, body: "", networkError: networkReason(error) };
  }
  return judgeJupyter({ url, kernelName: config.kernels.kernelName, transport: config.kernels.workspaceTransport }, answer);
}
