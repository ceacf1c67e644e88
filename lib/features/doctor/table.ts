/** The doctor's report as one plain-text table and the fixes under it. Pure. */
import type { DoctorReport, DoctorRow } from "@/lib/foundation/protocol/doctor";

const HEADERS = ["role", "model", "reachable", "model known", "tools", "images", "streaming", "verdict"];

function cells(row: DoctorRow): string[] {
  const p = row.probe;
  if (p === null) return [row.role, row.model ?? "(not set)", "-", "-", "-", "-", "-", row.verdict];
  const reachable = !p.reachable ? "no" : p.authFailed ? "key refused" : "yes";
  const tools = p.api === "responses" ? `${p.tools} (responses)` : p.tools;
  return [row.role, row.model ?? "", reachable, p.known, tools, p.images, p.streaming, row.verdict];
}

export function renderReport(report: DoctorReport): string {
  const rows = [HEADERS, ...report.rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  const out = [`Models at ${report.baseUrl}`, "", line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)];
  if (report.fixes.length > 0) out.push("", ...report.fixes.map((f) => `- ${f}`));
  out.push("", report.ok ? "Every role can work." : "Some roles cannot work until the problems above are fixed.");
  return out.join("\n");
}
