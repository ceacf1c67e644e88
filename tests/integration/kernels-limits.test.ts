import { accessSync, constants } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

/**
 * Rlimits hold per process, so a cell could fork without end or spread its
 * memory over children. Each kernel now lives in its own cgroup, with
 * ARGUS_KERNEL_MAX_PROCESSES and ARGUS_KERNEL_MEMORY_MB for all its processes
 * together; health says which kind of limit holds. (The memory case is in
 * python/tests/test_sandbox.py, with a limit below what the server allows.)
 */

const MAX_PROCESSES = 40;

function cgroupsWritable(): boolean {
  if (process.getuid?.() !== 0) return false;
  const writable = (p: string) => {
    try {
      accessSync(p, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  return (writable("/sys/fs/cgroup/pids/cgroup.procs") && writable("/sys/fs/cgroup/memory/cgroup.procs")) || writable("/sys/fs/cgroup/cgroup.subtree_control");
}

// Forks until refused, holding every child, then releases them: prints how many and whether it was refused.
const FORK_BOMB = `
import os
release_r, release_w = os.pipe()
children, refused = [], False
for _ in range(300):
    try:
        pid = os.fork()
    except BlockingIOError:
        refused = True
        break
    if pid == 0:
        os.close(release_w)
        os.read(release_r, 1)
        os._exit(0)
    children.append(pid)
os.close(release_w)
for pid in children:
    os.waitpid(pid, 0)
print(len(children), refused)
`;

let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_MAX_PROCESSES: String(MAX_PROCESSES), ARGUS_WORKSPACE_MAX_MB: "2" });
});
afterAll(async () => {
  await k?.close();
});

describe("limits for the whole kernel", () => {
  it("health reports what the kernels actually run under", async () => {
    const s = await k.newSession();
    const reported = (await k.kernels.execute(s.id, "import os; print(os.environ['ARGUS_KERNEL_LIMITS'])")).stdout.trim();
    expect((await k.core.health()).limits).toBe(reported);
    if (cgroupsWritable()) expect(reported).toMatch(/^cgroup-v[12]$/);
  });

  it.runIf(cgroupsWritable())("stops a cell forking 300 processes at ARGUS_KERNEL_MAX_PROCESSES, and the kernel carries on", async () => {
    const s = await k.newSession();
    const [forked, refused] = (await k.kernels.execute(s.id, FORK_BOMB)).stdout.trim().split(" ");
    expect(refused).toBe("True");
    expect(Number(forked)).toBeLessThan(MAX_PROCESSES);
    expect((await k.kernels.execute(s.id, "print(6 * 7)")).stdout).toBe("42\n");
  });

  it("ends a cell that fills the workspace past its quota with a readable error, until files are deleted", async () => {
    const s = await k.newSession();
    const small = await k.kernels.execute(s.id, "open('small.bin', 'wb').write(b'x' * 1024); print('ok')");
    expect(small.error).toBeNull();
    // Real blocks on disk (fallocate), in a folder, as the 6 GB did.
    const filled = await k.kernels.execute(s.id, "import os\nos.makedirs('out', exist_ok=True)\nwith open('out/big.bin', 'wb') as f:\n    os.posix_fallocate(f.fileno(), 0, 5 << 20)\nprint('written')");
    expect(filled.stdout).toBe("written\n");
    expect(filled.error?.name).toBe("WorkspaceFull");
    expect(filled.error?.value).toMatch(/limit is 2 MB\. Delete files/);
    expect(filled.error?.value).not.toContain(k.core.config.sessionsDir);
    // The next cell still runs, so it can clean up; then cells are clean again.
    const cleaned = await k.kernels.execute(s.id, "os.remove('out/big.bin'); print('removed')");
    expect(cleaned.stdout).toBe("removed\n");
    expect(cleaned.error).toBeNull();
  });
});
