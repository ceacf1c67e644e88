/**
 * What judging one request against this machine's own addresses costs
 * (lib/engines/computer/host-addresses.ts): reading os.networkInterfaces() for every
 * judgement, against the set reused for up to a second (what Argus does),
 * beside the baseline of the same judgement with no own-address check.
 *
 *   npm run bench:host-addresses   (writes bench/results/host-addresses.md)
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import { addressesOf, hostAddresses } from "@/lib/engines/computer/host-addresses";
import { classifyAddress } from "@/lib/foundation/net/ip-address";

const N = Number(process.env.BENCH_N ?? 20_000);
const ADDRESSES = ["93.184.216.34", "2606:4700::1111", "8.8.8.8", "::ffff:1.1.1.1"];

function perCallMicros(fn: (i: number) => unknown): number {
  for (let i = 0; i < 1000; i += 1) fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i += 1) fn(i);
  return Number(process.hrtime.bigint() - start) / N / 1000;
}

const variants = {
  baseline: (i: number) => classifyAddress(ADDRESSES[i % ADDRESSES.length]!),
  fresh: (i: number) => classifyAddress(ADDRESSES[i % ADDRESSES.length]!, addressesOf(os.networkInterfaces())),
  reused: (i: number) => classifyAddress(ADDRESSES[i % ADDRESSES.length]!, hostAddresses()),
};
// Round-robin, best of three: on a shared machine the least disturbed run is the truest.
const best = { baseline: Infinity, fresh: Infinity, reused: Infinity };
for (let round = 0; round < 3; round += 1) {
  for (const [name, fn] of Object.entries(variants)) best[name as keyof typeof best] = Math.min(best[name as keyof typeof best], perCallMicros(fn));
}
const { baseline, fresh, reused } = best;
const load = os.loadavg().map((n) => n.toFixed(2)).join(" ");
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}`;

const report = `# bench: host-addresses

One judgement of an IP address (\`classifyAddress\`), ${N} times, µs per call, best of three rounds. Machine: ${machine}; load average ${load} (shared).

| variant | µs per judgement |
|---|---|
| baseline: ranges only, no own-address check | ${baseline.toFixed(2)} |
| \`os.networkInterfaces()\` read for every judgement | ${fresh.toFixed(2)} |
| the set reused for up to 1 s (what Argus does) | ${reused.toFixed(2)} |
`;
console.log(report);
writeFileSync(new URL("./results/host-addresses.md", import.meta.url), report);
