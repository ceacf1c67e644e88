/**
 * The models the endpoint lists (`GET {baseURL}/models`), for the chat's model picker. Asked by
 * the server with the server's key: the key never reaches a browser, only the names do. The
 * answer is kept for a minute, so a page opening the picker does not send a request each time.
 */
import { z } from "zod";
import { ArgusError } from "@/lib/foundation/errors";
import { effectiveBaseUrl } from "./endpoint";
import { networkReason } from "./network-error";

/** Names past this many are not offered (a hosted endpoint may list hundreds). */
export const MAX_LISTED_MODELS = 500;
const LIST_TTL_MS = 60_000;
const LIST_TIMEOUT_MS = 10_000;

const ModelsList = z.object({ data: z.array(z.object({ id: z.unknown() }).passthrough()) });

/** The model ids of a `/models` answer: unique, sorted, printable, at most MAX_LISTED_MODELS; null when it is not such a list. */
export function modelIdsOf(body: unknown): string[] | null {
  const parsed = ModelsList.safeParse(body);
  if (!parsed.success) return null;
  const ids = parsed.data.data.map((m) => m.id).filter((id): id is string => typeof id === "string" && id.length > 0 && id.length <= 200 && !/[\u0000-\u001f\u007f]/.test(id));
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b)).slice(0, MAX_LISTED_MODELS);
}

export interface EndpointTarget {
  apiKey: string | null;
  baseUrl: string | null;
}

async function fetchModelIds(target: EndpointTarget): Promise<string[]> {
  const url = `${effectiveBaseUrl(target)}/models`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: target.apiKey === null ? {} : { authorization: `Bearer ${target.apiKey}` },
      signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ArgusError("unavailable:model", `The model endpoint could not be reached to list its models (${networkReason(error)?.text ?? (error instanceof Error ? error.message : String(error))}).`);
  }
  if (response.status === 401 || response.status === 403) {
    throw new ArgusError("unavailable:model", "The model endpoint refused the server's API key when asked for its models.");
  }
  const body = response.ok ? ((await response.json().catch(() => null)) as unknown) : null;
  const ids = modelIdsOf(body);
  if (ids === null) {
    throw new ArgusError("unavailable:model", `The model endpoint did not list its models (GET /models answered ${response.status}).`);
  }
  return ids;
}

/** One endpoint's model list, asked at most once a minute (a failure is not kept). */
export class EndpointModelList {
  private cached: { at: number; ids: Promise<string[]> } | null = null;

  constructor(
    private readonly target: EndpointTarget | null,
    private readonly fetchIds: (target: EndpointTarget) => Promise<string[]> = fetchModelIds,
    private readonly now: () => number = Date.now,
  ) {}

  list(): Promise<string[]> {
    if (this.target === null || (this.target.apiKey === null && this.target.baseUrl === null)) {
      return Promise.reject(new ArgusError("unavailable:model", "No model endpoint is configured: set OPENAI_BASE_URL (or OPENAI_API_KEY) and restart Argus."));
    }
    if (this.cached && this.now() - this.cached.at < LIST_TTL_MS) return this.cached.ids;
    const ids = this.fetchIds(this.target);
    const entry = { at: this.now(), ids };
    this.cached = entry;
    ids.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return ids;
  }
}
