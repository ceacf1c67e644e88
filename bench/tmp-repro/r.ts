import { startArgus } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { execSync } from "node:child_process";
const scratch = tempDir("argus-repro-");
const env = { ARGUS_JUPYTER: "auto", ARGUS_KERNEL_POOL: "1" };
let s = await startArgus({ dataDir: scratch.dir, instanceId: "argus-1", env });
for (let i = 0; i < Number(process.env.N ?? 4); i++) {
  const port = new URL(s.url).port;
  const pids = execSync(`pgrep -P ${s.proc.pid} || true`).toString().trim();
  await s.kill("SIGKILL");
  if (pids) execSync(`for p in ${pids.split("\n").join(" ")}; do pkill -KILL -P $p; kill -KILL $p; done 2>/dev/null || true`);
  const t = Date.now();
  s = await startArgus({ dataDir: scratch.dir, instanceId: "argus-1", env: { ...env, PORT: port } });
  console.log(`restart ${i}: ${Date.now() - t} ms`);
  console.log(s.output().split("\n").filter((l) => /jupyter|kernel|error|Error/i.test(l)).join("\n"));
}
await s.kill();
scratch.cleanup();
