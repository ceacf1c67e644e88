"use client";

import { useEffect, useState } from "react";

interface CopyTextButtonProps {
  text: string;
  /** Accessible name, e.g. "Copy code". */
  label: string;
  className?: string;
}

async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API unavailable (plain http, denied): the old way still works in most browsers.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** Copies text and says so, visibly and to screen readers. */
export function CopyTextButton({ text, label, className = "" }: CopyTextButtonProps) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (status === "idle") return;
    const t = setTimeout(() => setStatus("idle"), 2000);
    return () => clearTimeout(t);
  }, [status]);

  return (
    <>
      <button
        type="button"
        aria-label={label}
        onClick={async () => setStatus((await writeClipboard(text)) ? "copied" : "failed")}
        className={`rounded-md border border-zinc-300 px-2.5 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-zinc-600 dark:text-zinc-200 dark:hover:bg-zinc-800 ${className}`}
      >
        {status === "copied" ? "Copied" : status === "failed" ? "Copy failed" : "Copy"}
      </button>
      <span role="status" className="sr-only">
        {status === "copied" ? "Copied to the clipboard." : status === "failed" ? "Could not copy." : ""}
      </span>
    </>
  );
}
