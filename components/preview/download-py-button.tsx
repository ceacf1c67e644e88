"use client";

import { pyFileContent, pyFileName, type FinalCode } from "@/lib/client/preview-data";

/** Saves the function and its test as one runnable `.py`, named after the function. */
export function DownloadPyButton({ final }: { final: FinalCode }) {
  const name = pyFileName(final.code);

  const download = () => {
    const blob = new Blob([pyFileContent(final)], { type: "text/x-python;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // Revoking at once can cancel the download in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <button
      type="button"
      data-testid="download-py"
      onClick={download}
      aria-label={`Download ${name}`}
      className="rounded-md bg-blue-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-blue-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-zinc-900"
    >
      Download .py
    </button>
  );
}
