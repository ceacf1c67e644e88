import type { Execution } from "@/lib/foundation/protocol/contexts";

/**
 * The text form of an Execution that agents read and events keep: stdout,
 * stderr, the error, the cell's value, and a count of the pictures (which
 * travel separately, as images).
 */
export function executionText(e: Execution): string {
  const parts: string[] = [];
  if (e.stdout) parts.push(`----- stdout -----\n${e.stdout.replace(/\n$/, "")}`);
  if (e.stderr) parts.push(`----- stderr -----\n${e.stderr.replace(/\n$/, "")}`);
  const main = e.results.find((r) => r.isMain);
  const mainText = main?.data["text/plain"];
  if (mainText !== undefined && !main?.data["image/png"] && !main?.data["image/jpeg"]) {
    parts.push(`----- value -----\n${mainText}`);
  }
  const images = e.results.filter((r) => r.data["image/png"] || r.data["image/jpeg"]);
  if (images.length > 0) {
    const viewed = images.filter((r) => r.viewed).length;
    parts.push(`----- images -----\n${images.length} image(s) displayed${viewed ? `, ${viewed} passed to view_image` : ""}`);
  }
  if (e.error) parts.push(`----- error -----\n${e.error.traceback || `${e.error.name}: ${e.error.value}`}`);
  if (parts.length === 0) return "(the cell ran without output)";
  return parts.join("\n");
}
