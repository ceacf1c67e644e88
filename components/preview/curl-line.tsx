"use client";

import { useEffect, useState } from "react";
import { CopyButton } from "@/components/chat/copy-button";
import { Button } from "@/components/ui/button";
import { api, ApiError } from "@/lib/client/api";
import { curlLine, TOKEN_PLACEHOLDER } from "@/lib/client/function-curl";

/**
 * The ready curl command that runs the function over HTTP. The page's own
 * credential is an HttpOnly cookie a script cannot use, so the person can make
 * a function token here: it only runs this session's functions, and is shown
 * this once (it is stored hashed).
 */
export function CurlLine({ sessionId, name }: { sessionId: string; name: string }) {
  // The page's own origin, known only in the browser (the first render is on the server).
  const [origin, setOrigin] = useState("http://localhost:3000");
  const [token, setToken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setOrigin(window.location.origin), []);
  useEffect(() => setToken(null), [sessionId]);
  const line = curlLine(origin, sessionId, name, null, token ?? TOKEN_PLACEHOLDER);

  const makeToken = async () => {
    setBusy(true);
    setError(null);
    try {
      setToken((await api.createFunctionToken(sessionId)).token);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "The token could not be made. Try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Run over HTTP" className="flex flex-col gap-1">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Run over HTTP</h3>
        <div className="flex items-center gap-1">
          {token === null && (
            <Button size="xs" variant="outline" data-testid="make-function-token" onClick={makeToken} disabled={busy}>
              {busy ? "Making a token…" : "Make a token for scripts"}
            </Button>
          )}
          <CopyButton text={line} what="curl command" />
        </div>
      </div>
      <pre data-testid="curl-line" className="overflow-x-auto rounded-md border bg-muted/40 p-2 font-mono text-xs">{line}</pre>
      {error !== null ? (
        <p role="alert" className="text-xs text-destructive">{error}</p>
      ) : token === null ? (
        <p data-testid="curl-token-hint" className="text-xs text-muted-foreground">
          To run this from a script, press <strong>Make a token for scripts</strong>: the token takes the place of <code>{TOKEN_PLACEHOLDER}</code> in
          the command, ready to copy. It runs only this chat&apos;s functions.
        </p>
      ) : (
        <p data-testid="function-token-note" className="text-xs text-muted-foreground">
          This token is shown once: copy the command now. It only runs this session&apos;s functions; anyone who has it can run them.
        </p>
      )}
    </section>
  );
}
