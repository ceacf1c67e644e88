import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { autogroupOn } from "@/tests/helpers/autogroup";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

// ARGUS_KERNEL_NICE travels from Argus's settings through the kernelspec to the launcher
// (python/argus_sandbox/priority.py); the default, 10, is checked in kernels-preload.test.ts.
let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_NICE: "3" });
});
afterAll(async () => {
  await k?.close();
});

describe("ARGUS_KERNEL_NICE", () => {
  it("sets how far below the server the kernel and its scheduling group run", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(s.id, [
      "import os",
      "print(os.nice(0))",
      // A kernel built without autogroup has no such file.
      "try:\n    print(open('/proc/self/autogroup').read().split()[-1])\nexcept OSError:\n    print('none')",
    ].join("\n"));
    expect(r.error).toBeNull();
    const [process, group] = r.stdout.trim().split("\n");
    expect(process).toBe("3");
    if (autogroupOn()) expect(group).toBe("3");
  });
});
