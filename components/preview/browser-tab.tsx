"use client";

import { ChevronLeft, ChevronRight, SkipForward } from "lucide-react";
import { useState } from "react";
import { PointedScreenshot } from "@/components/chat/pointed-screenshot";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { IconButton } from "@/components/ui/icon-button";
import { browserErrorWords, shownScreenIndex, type BrowserScreen } from "@/lib/client/browser-screens";
import { BrowserPolicyToggle, type BrowserPolicyChecks } from "./browser-policy-toggle";
import { EmptyState } from "./empty-state";

export interface BrowserTabProps {
  /** The session's browser screenshots, oldest first (browserScreens). */
  screens: BrowserScreen[];
  policy: BrowserPolicyChecks;
  onPolicyChange(value: BrowserPolicyChecks): Promise<boolean>;
  /** No session to save the setting in. */
  policyDisabled?: boolean;
}

/**
 * The browser, live: the newest screenshot with where the last action
 * pointed, the page's title and address, and prev / next through the earlier
 * screens. Stepping back stops following the stream until "Show the latest".
 */
export function BrowserTab({ screens, policy, onPolicyChange, policyDisabled = false }: BrowserTabProps) {
  // The seq of the screen the person picked; null follows the newest.
  const [picked, setPicked] = useState<number | null>(null);
  const index = shownScreenIndex(screens, picked);
  const screen = index >= 0 ? screens[index]! : null;
  const atLatest = index === screens.length - 1;
  const go = (i: number) => setPicked(i >= screens.length - 1 ? null : screens[i]!.seq);

  return (
    <div data-testid="browser-tab" className="flex flex-col gap-3">
      {screen ? (
        <section aria-label="Browser screen" className="flex flex-col gap-2">
          <div className="min-w-0">
            <p data-testid="browser-title" className="truncate font-medium">
              {screen.title || "Untitled page"}
            </p>
            <p data-testid="browser-tab-url" className="truncate font-mono text-xs text-muted-foreground" title={screen.url}>
              {screen.url}
            </p>
          </div>
          <div data-testid="browser-screen" data-seq-shown={screen.seq} data-latest={atLatest}>
            <PointedScreenshot
              key={screen.image}
              image={screen.image}
              pointer={screen.pointer}
              viewport={screen.viewport}
              alt={`The browser showing ${screen.title || screen.url}`}
              imageClassName="w-full"
              linked
            />
          </div>
          <p className="text-sm text-muted-foreground">
            {screen.action ? (
              <>
                After <code className="rounded bg-muted px-1 font-mono">{screen.action}</code>
              </>
            ) : (
              "The page as it opened"
            )}
          </p>
          {screen.error && <p className="text-sm text-danger-soft-foreground">{browserErrorWords(screen.error)}</p>}
          <div className="flex flex-wrap items-center gap-2">
            <IconButton label="Previous screenshot" variant="outline" disabled={index <= 0} onClick={() => go(index - 1)}>
              <ChevronLeft aria-hidden="true" />
            </IconButton>
            <p role="status" data-testid="browser-position" className="text-sm tabular-nums">
              Screenshot {index + 1} of {screens.length}
            </p>
            <IconButton label="Next screenshot" variant="outline" disabled={atLatest} onClick={() => go(index + 1)}>
              <ChevronRight aria-hidden="true" />
            </IconButton>
            {!atLatest && (
              <Button size="sm" data-testid="browser-show-latest" onClick={() => setPicked(null)} className="ml-auto">
                <SkipForward aria-hidden="true" />
                Show the latest
              </Button>
            )}
          </div>
        </section>
      ) : (
        <EmptyState>The browser is starting — its screen will appear here.</EmptyState>
      )}
      <Card padding="sm">
        <BrowserPolicyToggle value={policy} onChange={onPolicyChange} disabled={policyDisabled} />
      </Card>
    </div>
  );
}
