"use client";

import { useEffect, useState } from "react";
import { CopyButton } from "@/components/chat/copy-button";
import { curlLine, TOKEN_PLACEHOLDER } from "@/lib/client/function-curl";

/** The ready curl command that runs the function over HTTP; the token stays a placeholder. */
export function CurlLine({ sessionId, name }: { sessionId: string; name: string }) {
  // The page's own origin, known only in the browser (the first render is on the server).
  const [origin, setOrigin] = useState("http://localhost:3000");
  useEffect(() => setOrigin(window.location.origin), []);
  const line = curlLine(origin, sessionId, name);
  return (
    <section aria-label="Run over HTTP" className="flex flex-col gap-1">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold">Run over HTTP</h3>
        <CopyButton text={line} what="curl command" />
      </div>
      <pre data-testid="curl-line" className="overflow-x-auto rounded-md border bg-muted/40 p-2 font-mono text-xs">{line}</pre>
      <p className="text-xs text-muted-foreground">
        Replace <code>{TOKEN_PLACEHOLDER}</code> with this session&apos;s token: the one <code>POST /api/sessions</code> answered when the session was created over the API.
      </p>
    </section>
  );
}
