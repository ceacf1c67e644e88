import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { autogroupOn } from "@/tests/helpers/autogroup";
import { eventually, startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_PRELOAD: "vision", ARGUS_KERNEL_POOL: "2" });
  // Both pooled kernels ready: what the tests below take has preloaded already.
  await eventually(() => k.kernels.stats().pooled === 2, 60_000);
});
afterAll(async () => {
  await k?.close();
});

const LOADED = "import sys\nprint(all(m in sys.modules for m in ('cv2', 'scipy.ndimage', 'skimage.segmentation', 'matplotlib.pyplot')))";

describe("kernels with the vision stack preloaded (ARGUS_KERNEL_PRELOAD=vision)", () => {
  it("gives a session a kernel that imported the vision stack before its first cell, with a clean namespace", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(s.id, `${LOADED}\nprint(sorted(n for n in ('cv2', 'skimage', 'plt', 'np', '_argus_preload') if n in globals()))`);
    expect(r.error).toBeNull();
    expect(r.stdout).toBe("True\n[]\n");
    // matplotlib was imported before the first cell, yet figures still come back as pictures.
    const plot = await k.kernels.execute(s.id, "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()");
    expect(plot.error).toBeNull();
    expect(plot.results.some((x) => typeof x.data["image/png"] === "string")).toBe(true);
    // Kernels run below the server's priority (launch_kernel.py), and cannot raise it back.
    const nice = await k.kernels.execute(s.id, "import os\nprint(os.nice(0))\ntry:\n    os.nice(-5)\n    print('raised')\nexcept OSError:\n    print('refused')");
    expect(nice.stdout).toBe("10\nrefused\n");
    // With the scheduler's autogroup on, each kernel is a group of its own (jupyter starts it in a
    // new session) and its nice counts only inside it: the group itself must be at 10 too.
    if (autogroupOn()) {
      const group = await k.kernels.execute(s.id, "print(open('/proc/self/autogroup').read().split()[-1])");
      expect(group.stdout).toBe("10\n");
    }
  });

  it("lends the coder a preloaded kernel too, and frees its place once it is shut down", async () => {
    const s = await k.newSession();
    const out = await k.kernels.isolated(s.id, (kernel) => kernel.execute(LOADED, { timeoutMs: 30_000 }));
    expect(out.execution.stdout).toBe("True\n");
    // The shutdown happens after `isolated` returns; the pool refills to its size once it has.
    await eventually(() => k.kernels.stats().pooled === 2, 60_000);
  });
});
