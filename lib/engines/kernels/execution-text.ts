import type { Execution } from "@/lib/foundation/protocol/contexts";
import type { CellOutput } from "@/lib/foundation/protocol/cell-output";

const image = (r: Execution["results"][number]) => Boolean(r.data["image/png"] || r.data["image/jpeg"]);

/**
 * A cell's output, typed, from the kernel's structured result: stdout, stderr, the cell's value
 * (unless it is a picture), a count of the pictures (which travel separately, as images) and the
 * error. Streams lose their final newline, as the text form shows them.
 */
export function cellOutputOf(e: Execution): CellOutput {
  const main = e.results.find((r) => r.isMain);
  const value = main && !image(main) ? (main.data["text/plain"] ?? "") : "";
  const images = e.results.filter(image);
  return {
    stdout: e.stdout.replace(/\n$/, ""),
    stderr: e.stderr.replace(/\n$/, ""),
    value,
    images: { shown: images.length, viewed: images.filter((r) => r.viewed).length },
    error: e.error ? e.error.traceback || `${e.error.name}: ${e.error.value}` : "",
    note: "",
  };
}
