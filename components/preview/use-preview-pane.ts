"use client";

import { useCallback, useMemo, useState } from "react";
import type { PreviewTab } from "./preview-tab-list";

/**
 * What the person chose in the preview pane: the open tab, whether they picked it (then the pane
 * never switches by itself), and the kept function the Code tab shows. Held by the page, above
 * the pane: the layout mounts the pane in a different place on each side of the phone
 * breakpoint, and a window crossing it (or a browser resizing the viewport for a moment) must
 * not lose what the person chose.
 */
export interface PreviewPane {
  tab: PreviewTab;
  picked: boolean;
  /** The function picked in the Code tab, and the final code it was picked under (a new coder result brings the newest back). */
  chosenFunction: { name: string; underCode: string | null } | null;
  select(tab: PreviewTab): void;
  /** The browser started working: its tab comes forward, unless the person picked one. */
  showBrowser(): void;
  chooseFunction(name: string, underCode: string | null): void;
  /** Another session: everything starts over. */
  reset(): void;
}

interface PaneState {
  tab: PreviewTab;
  picked: boolean;
  chosenFunction: PreviewPane["chosenFunction"];
}

const START: PaneState = { tab: "media", picked: false, chosenFunction: null };

export function usePreviewPane(): PreviewPane {
  const [state, setState] = useState<PaneState>(START);
  const select = useCallback((tab: PreviewTab) => setState((s) => ({ ...s, tab, picked: true })), []);
  const showBrowser = useCallback(() => setState((s) => (s.picked || s.tab === "browser" ? s : { ...s, tab: "browser" })), []);
  const chooseFunction = useCallback((name: string, underCode: string | null) => setState((s) => ({ ...s, chosenFunction: { name, underCode } })), []);
  const reset = useCallback(() => setState(START), []);
  return useMemo(() => ({ ...state, select, showBrowser, chooseFunction, reset }), [state, select, showBrowser, chooseFunction, reset]);
}

/** The function the Code tab shows: the one picked under the current final code, else none (the newest). */
export function chosenFunctionName(pane: Pick<PreviewPane, "chosenFunction">, finalCode: string | null): string | null {
  return pane.chosenFunction && pane.chosenFunction.underCode === finalCode ? pane.chosenFunction.name : null;
}
