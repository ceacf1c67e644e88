"use client";

import { Check, Copy, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

/**
 * The Clipboard API exists only in secure contexts; Argus is often opened over
 * plain http on a LAN address, so fall back to a hidden textarea + execCommand.
 */
async function writeClipboard(text: string): Promise<void> {
  if (typeof navigator !== "undefined" && navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand("copy")) throw new Error("copy refused");
  } finally {
    area.remove();
  }
}

export interface CopyButtonProps {
  text: string;
  /** What is copied, for the accessible name: "code" → "Copy code". */
  what?: string;
  className?: string;
}

/** A small Copy button that confirms with "Copied" (and says so to screen readers). */
export function CopyButton({ text, what = "code", className }: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    clearTimeout(timer.current);
    try {
      await writeClipboard(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    timer.current = setTimeout(() => setState("idle"), 1500);
  };

  const visible = state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy";
  const Icon = state === "copied" ? Check : state === "failed" ? X : Copy;
  return (
    <Button
      variant="ghost"
      size="xs"
      onClick={copy}
      // The accessible name starts with the visible text (label-in-name).
      aria-label={state === "idle" ? `Copy ${what}` : visible}
      className={cn("text-muted-foreground hover:text-foreground", className)}
    >
      <Icon aria-hidden="true" />
      {visible}
      <span role="status" className="sr-only">
        {state === "copied" ? "Copied to the clipboard" : state === "failed" ? "Could not copy" : ""}
      </span>
    </Button>
  );
}
