"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { browserProofHeaders } from "@/lib/client/browser-proof";
import type { UploadView } from "@/lib/foundation/protocol/files";

interface Props {
  sessionId: string;
  functionName: string;
  uploads: UploadView[];
  /** Called once the server accepted the batch. */
  onStarted: () => void;
}

async function startBatch(sessionId: string, body: BodyInit, json: boolean): Promise<string | null> {
  const res = await fetch(`/api/sessions/${sessionId}/batches`, {
    method: "POST",
    credentials: "same-origin",
    headers: { ...browserProofHeaders(), ...(json ? { "content-type": "application/json" } : {}) },
    body,
  }).catch(() => null);
  if (!res) return "The server can't be reached.";
  if (res.ok) return null;
  const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return data?.error?.message ?? `The server answered ${res.status}.`;
}

/** "Run on images…": pick session uploads, or choose files / a folder's files / a zip. */
export function RunOnImagesDialog({ sessionId, functionName, uploads, onStarted }: Props) {
  const images = uploads.filter((u) => u.kind === "image");
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const openChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setPicked(new Set(images.map((u) => u.id)));
      setFiles([]);
      setError(null);
    }
  };
  const toggle = (id: string) =>
    setPicked((p) => {
      const n = new Set(p);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const submit = async () => {
    setBusy(true);
    setError(null);
    let problem: string | null;
    if (files.length > 0) {
      const form = new FormData();
      form.set("functionName", functionName);
      for (const f of files) form.append(/\.zip$/i.test(f.name) ? "zip" : "files", f, f.name);
      problem = await startBatch(sessionId, form, false);
    } else {
      problem = await startBatch(sessionId, JSON.stringify({ functionName, uploadIds: [...picked] }), true);
    }
    setBusy(false);
    if (problem) setError(problem);
    else {
      setOpen(false);
      onStarted();
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={openChange}>
      <Dialog.Trigger asChild>
        <Button size="sm" variant="outline" data-testid="run-on-images">
          Run on images…
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[85vh] w-[min(32rem,92vw)] -translate-x-1/2 -translate-y-1/2 flex-col gap-3 overflow-auto rounded-lg bg-background p-4 shadow-xl">
          <Dialog.Title className="text-base font-semibold">Run {functionName} on images</Dialog.Title>
          <Dialog.Description className="text-sm text-muted-foreground">Pick uploads of this session, or choose files or a zip from your computer.</Dialog.Description>
          {images.length > 0 && files.length === 0 && (
            <fieldset className="flex max-h-48 flex-col gap-1 overflow-auto text-sm">
              <legend className="mb-1 font-medium">Session uploads</legend>
              {images.map((u) => (
                <label key={u.id} className="flex items-center gap-2">
                  <input type="checkbox" checked={picked.has(u.id)} onChange={() => toggle(u.id)} />
                  <span className="font-mono">{u.name}</span>
                </label>
              ))}
            </fieldset>
          )}
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Files or a zip</span>
            <input data-testid="batch-files" type="file" multiple accept="image/*,video/*,.zip,application/zip" onChange={(e) => setFiles([...(e.target.files ?? [])])} />
          </label>
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Dialog.Close asChild>
              <Button size="sm" variant="ghost">
                Close
              </Button>
            </Dialog.Close>
            <Button size="sm" data-testid="batch-start" disabled={busy || (files.length === 0 && picked.size === 0)} onClick={() => void submit()}>
              {busy ? "Starting…" : `Run on ${files.length > 0 ? `${files.length} file(s)` : `${picked.size} upload(s)`}`}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
