"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { DoctorReport } from "@/lib/foundation/protocol/doctor";
import { renderReport } from "@/lib/features/doctor/table";

type State = { kind: "idle" } | { kind: "checking" } | { kind: "done"; report: DoctorReport } | { kind: "failed"; message: string };

/** "Check models": runs the doctor on the server and shows its table and fixes. */
export function ModelCheckPanel() {
  const [state, setState] = useState<State>({ kind: "idle" });

  async function check() {
    setState({ kind: "checking" });
    try {
      const res = await fetch("/api/models/check", { method: "POST" });
      const body = (await res.json()) as DoctorReport | { error?: { message?: string } };
      if (!res.ok) setState({ kind: "failed", message: ("error" in body && body.error?.message) || `The check failed (${res.status}).` });
      else setState({ kind: "done", report: body as DoctorReport });
    } catch {
      setState({ kind: "failed", message: "Could not reach Argus to run the check." });
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <Button onClick={check} disabled={state.kind === "checking"} className="self-start" data-testid="check-models">
        {state.kind === "checking" ? "Checking…" : "Check models"}
      </Button>
      <p className="text-sm text-muted-foreground">Sends a few small requests to each role&apos;s model: reachable, known, tool calls, images, streaming.</p>
      {state.kind === "done" && (
        <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs" data-testid="model-check-report">
          {renderReport(state.report)}
        </pre>
      )}
      {state.kind === "failed" && (
        <p role="alert" className="text-sm text-destructive" data-testid="model-check-error">
          {state.message}
        </p>
      )}
    </div>
  );
}
