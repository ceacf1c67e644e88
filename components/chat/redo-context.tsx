"use client";

import { createContext, useContext } from "react";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";

/**
 * What the transcript's items need to offer a turn again (lib/foundation/protocol/redo.ts): which of the
 * person's messages may be edited, the earlier versions a mark replaced, and the actions. Given
 * by the message list through context, so the memoised items need no extra props.
 */
export interface RedoControls {
  editable: ReadonlySet<number>;
  /** What each Regenerate or Edit mark (by seq) superseded. */
  earlier: ReadonlyMap<number, StreamedMessage[]>;
  /** Replaces the person's message `seq` with `text` and answers it; resolves true when accepted. */
  onEdit(seq: number, text: string): Promise<boolean>;
}

const NONE: RedoControls = { editable: new Set(), earlier: new Map(), onEdit: async () => false };

export const RedoContext = createContext<RedoControls>(NONE);

export const useRedo = (): RedoControls => useContext(RedoContext);
