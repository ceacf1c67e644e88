import { describe, expect, it } from "vitest";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import { getSession } from "@/lib/engines/db/sessions";
import { ArgusError } from "@/lib/foundation/errors";
import { callSessionFunction } from "@/lib/features/functions/session-functions";
import type { WarmFunctionRunners } from "@/lib/features/functions/warm-runners";
import { kernelCpuSeconds } from "@/lib/engines/kernels/kernel-cpu";
import { removeSession } from "@/lib/features/sessions/service";
import { eventually } from "@/tests/helpers/kernel-core";
import { tinyInput, warmCoreForFile, warmRunners } from "@/tests/helpers/warm-runners";

/**
 * A warm function kernel runs many calls of one session's function version, and the function is
 * model-written: whatever one call leaves in the kernel (its working directory, threads, patched
 * internals) is there at the next. What it leaves may only hurt the function's own later calls
 * for one call at most, never another session's, and never keep a kernel past its session.
 */
const t = warmCoreForFile();

const input = tinyInput;

describe("what a call leaves in a warm kernel", () => {
  it("a working directory changed by the function does not stop its next call from getting its file", async () => {
    const s = await t.k.newSession();
    // A common pattern in model-written code: work in a scratch directory and never come back.
    const code = "import os, tempfile\ndef f(p):\n    data = open(p, 'rb').read()\n    os.chdir(tempfile.mkdtemp())\n    return data.hex()\n";
    const fn = { sessionId: s.id, name: "f", code };
    expect(await t.warm.call(fn, { name: "a.png", bytes: new Uint8Array([1]) })).toMatchObject({ result: "01" });
    expect(await t.warm.call(fn, { name: "b.png", bytes: new Uint8Array([2]) })).toMatchObject({ result: "02" });
  });

  it("links planted under the next call's staged input, its file name and the saved-pictures folder are replaced, never followed", async () => {
    const s = await t.k.newSession();
    const code = [
      "import os",
      "def f(p):",
      "    if p == 'plant.png':",
      "        os.symlink('/etc/passwd', '.argus-input-0')",
      "        os.symlink('/etc/hostname', 'in.png')",
      "        os.symlink('/', '.argus-saved')",
      "        return 'planted'",
      "    return open(p, 'rb').read().hex()",
      "",
    ].join("\n");
    const fn = { sessionId: s.id, name: "f", code };
    expect(await t.warm.call(fn, input("plant.png"))).toMatchObject({ result: "planted" });
    expect(await t.warm.call(fn, input())).toMatchObject({ result: "010203" });
  });

  it("a thread that moves the kernel elsewhere after its call costs the function one call at most", async () => {
    const s = await t.k.newSession();
    // The thread waits for the next call's staged input, then changes directory under it.
    const code = [
      "import os, threading, time, tempfile",
      "def f(p):",
      "    if p == 'arm.png':",
      "        def later():",
      "            while not os.path.exists('.argus-input-0'):",
      "                time.sleep(0.001)",
      "            os.chdir(tempfile.mkdtemp())",
      "        threading.Thread(target=later, daemon=True).start()",
      "        return 'armed'",
      "    return open(p, 'rb').read().hex()",
      "",
    ].join("\n");
    const fn = { sessionId: s.id, name: "f", code };
    expect(await t.warm.call(fn, input("arm.png"))).toMatchObject({ result: "armed" });
    await t.warm.call(fn, input()); // may fail: the kernel was moved under it
    expect(await t.warm.call(fn, input())).toMatchObject({ result: "010203" });
  });
});

describe("an outcome forged by what an earlier call left", () => {
  it("cannot make the next call outrun its time limit", async () => {
    const s = await t.k.newSession();
    // The thread waits for the next call's staged input, silences the real outcome and publishes its own.
    const code = [
      "import os, threading, time",
      "from IPython.display import display",
      "import argus.function_call as fc",
      "def f(p):",
      "    if p == 'arm.png':",
      "        def later():",
      "            while not os.path.exists('.argus-input-0'):",
      "                time.sleep(0.05)",
      "            fc._publish = lambda outcome: None",
      "            display({fc.RESULT_MIME: {'index': 0, 'result': 'forged', 'stdout': '', 'seconds': 0.01, 'error': None, 'saved': []}, 'text/plain': ''}, raw=True)",
      "        threading.Thread(target=later, daemon=True).start()",
      "        return 'armed'",
      "    time.sleep(30)",
      "    return 'real'",
      "",
    ].join("\n");
    const fn = { sessionId: s.id, name: "f", code };
    expect(await t.warm.call(fn, input("arm.png"))).toMatchObject({ result: "armed" });
    const next = await t.warm.call(fn, input(), { limits: { timeoutMs: 2000 } });
    expect(next).toMatchObject({ result: null, error: { kind: "timeout" } });
  });
});

describe("work a call leaves running", () => {
  // Counts the kernel's calls in a module only the same process still has (as functions-warm does).
  const COUNT = "import sys, types\nprobe = sys.modules.setdefault('argus_warm_probe', types.ModuleType('argus_warm_probe'))\nprobe.calls = getattr(probe, 'calls', 0) + 1\n";
  const LEAVERS = {
    thread: "import threading\ndef spin():\n    while True:\n        pass\nthreading.Thread(target=spin, daemon=True).start()\n",
    process: "import subprocess\nsubprocess.Popen(['/bin/sh', '-c', 'while :; do :; done'], start_new_session=True)\n",
  };
  const indent = (code: string) => code.split("\n").map((l) => (l ? `    ${l}` : l)).join("\n");

  // Only the host can tell (a kernel can patch anything in its own process): where no cgroup per
  // kernel exists, the idle time alone bounds this work (docs/functions.md, warm kernels).
  it("is stopped with its kernel, which is not kept warm, for a spinning thread and a spinning process alike", async (ctx) => {
    if (!["cgroup-v1", "cgroup-v2"].includes(t.k.core.limits.kind)) ctx.skip();
    // With a cgroup per kernel the host must be able to read a kernel's CPU: fail here, plainly, not on the wait below.
    expect(await t.k.kernels.isolated(null, (kernel) => kernelCpuSeconds(kernel.id))).not.toBeNull();
    for (const [what, leave] of Object.entries(LEAVERS)) {
      const s = await t.k.newSession();
      const code = `def f(p):\n${indent(COUNT)}\n    if p == 'leave.png':\n${indent(indent(leave))}\n    return probe.calls\n`;
      const fn = { sessionId: s.id, name: "f", code };
      // An idle time far past the wait below: only the CPU check can give this kernel back. Under
      // load, a kernel at nice 10 may get a few percent of a core: half a second takes a while.
      const w = warmRunners(t.k, { idleMs: 3_600_000 });
      try {
        expect(await w.call(fn, input("leave.png")), what).toMatchObject({ result: 1 });
        expect(w.size()).toBe(1);
        await eventually(() => w.size() === 0, 180_000);
        expect(await w.call(fn, input()), what).toMatchObject({ result: 1 }); // a new kernel
      } finally {
        await w.close();
      }
    }
  }, 420_000);

  it("a kernel at rest stays warm", async () => {
    const s = await t.k.newSession();
    const fn = { sessionId: s.id, name: "f", code: `def f(p):\n${indent(COUNT)}\n    return probe.calls\n` };
    const w = warmRunners(t.k);
    try {
      expect(await w.call(fn, input())).toMatchObject({ result: 1 });
      // Long enough for the watch to have looked several times.
      await new Promise((r) => setTimeout(r, 3000));
      expect(await w.call(fn, input())).toMatchObject({ result: 2 });
    } finally {
      await w.close();
    }
  });
});

describe("a warm kernel and its session", () => {
  it("is not kept for a session deleted before or while its call ran", async () => {
    const s = await t.k.newSession();
    const session = (await getSession(t.k.core.db, s.id))!;
    const fn = { sessionId: s.id, name: "f", code: "import time\ndef f(p):\n    time.sleep(0.5)\n    return 1\n" };
    const w = warmRunners(t.k);
    try {
      // The request was authorized before the delete; its call starts as the delete goes on.
      const call = w.call(fn, input());
      await removeSession(t.k.core, session);
      await call;
      expect(w.size()).toBe(0);
      // A call of a session already gone (authorized just before the delete) keeps nothing either.
      await w.call(fn, input());
      expect(w.size()).toBe(0);
    } finally {
      await w.close();
    }
  });

  it("a call whose session is deleted before its pictures are stored answers that the session is gone, not a server error", async () => {
    const s = await t.k.newSession();
    const session = (await getSession(t.k.core.db, s.id))!;
    const code = "import numpy as np\nfrom PIL import Image\ndef f(p):\n    Image.fromarray(np.zeros((8, 8, 3), dtype=np.uint8)).save('out.png')\n    return 1\n";
    const kept = await addFunctionVersion(t.k.core.db, { sessionId: s.id, name: "f", code, test: "", runId: null, testOutput: "", success: true, now: new Date().toISOString() });
    // The request was authorized and its version read just before the delete.
    await removeSession(t.k.core, session);
    const error = await callSessionFunction(t.k.core, kept, input()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ArgusError);
    expect(error).toMatchObject({ code: "not_found:session", status: 404 });
  });
});
