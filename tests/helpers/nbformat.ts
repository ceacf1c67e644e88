import { spawnSync } from "node:child_process";

/** Validates a notebook with Debian's python3-nbformat; returns "" when valid, else the problem. */
export function nbformatProblems(nb: unknown): string {
  const run = spawnSync(
    "/usr/bin/python3",
    ["-c", "import sys, nbformat; nbformat.validate(nbformat.reads(sys.stdin.read(), as_version=4)); print('valid')"],
    { input: JSON.stringify(nb), encoding: "utf8" },
  );
  return run.status === 0 ? "" : run.stderr || `exit ${run.status}`;
}
