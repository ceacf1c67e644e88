"use client";

import { Download } from "lucide-react";
import { Button } from "@/components/ui/button";
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
    <Button size="xs" data-testid="download-py" onClick={download} aria-label={`Download ${name}`}>
      <Download aria-hidden="true" />
      Download .py
    </Button>
  );
}
