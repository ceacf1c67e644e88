/**
 * An event as the model sees it: the OpenHands dict without ids or
 * bookkeeping, and long output cut to a head and a tail.
 */
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { truncateMiddle } from "@/lib/foundation/text/truncate-middle";
import { isDict, type Dict } from "./dict";
import { toDict } from "./serialization";


const MEMORY_DROPPED_TOP = ["id", "cause", "timestamp", "message", "runId", "tool_call_metadata", "llm_metrics", "model_replies"];
const MEMORY_DROPPED_ARGS = ["image_urls", "blocking", "confirmation_state"];
/** Browser state that is bulky or only meaningful to the browser itself. */
const MEMORY_DROPPED_EXTRAS = [
  "image_urls",
  "screenshot",
  "set_of_marks",
  "dom_object",
  "axtree_object",
  "extra_element_properties",
  "active_page_index",
  "last_browser_action",
  "last_browser_action_error",
  "focused_element_bid",
  "open_pages_urls",
];

/** The dict put in the model's context: no ids or bookkeeping, long output cut. */
export function toMemory(e: ArgusEvent, options: { maxChars: number }): Dict {
  const d = toDict(e);
  for (const key of MEMORY_DROPPED_TOP) delete d[key];
  if (isDict(d.args)) for (const key of MEMORY_DROPPED_ARGS) delete d.args[key];
  if (isDict(d.extras)) for (const key of MEMORY_DROPPED_EXTRAS) delete d.extras[key];
  if (typeof d.content === "string") d.content = truncateMiddle(d.content, options.maxChars);
  return d;
}
