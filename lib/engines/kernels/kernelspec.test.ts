import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ARGUS_KERNEL_NAME, type KernelspecJson, type KernelspecOptions, kernelspecJson, writeKernelspec } from "./kernelspec";

let dataDir: string;

function options(overrides: Partial<KernelspecOptions> = {}): KernelspecOptions {
  return {
    jupyterDataDir: dataDir,
    python: "/usr/bin/python3",
    launcherPath: "/srv/argus/python/argus_sandbox/launch_kernel.py",
    packageDir: "/srv/argus/python",
    memoryMb: 2048,
    cpuSeconds: 600,
    maxProcesses: 128,
    sandbox: "bubblewrap",
    ...overrides,
  };
}

function readSpec(): KernelspecJson {
  const file = path.join(dataDir, "kernels", ARGUS_KERNEL_NAME, "kernel.json");
  return JSON.parse(readFileSync(file, "utf8")) as KernelspecJson;
}

beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "argus-kernelspec-"));
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("writeKernelspec", () => {
  it("writes kernels/argus-python/kernel.json and returns its name", () => {
    expect(writeKernelspec(options())).toBe("argus-python");
    const spec = readSpec();
    expect(spec.argv).toEqual(["/usr/bin/python3", "/srv/argus/python/argus_sandbox/launch_kernel.py", "{connection_file}"]);
    expect(spec.display_name).toBe("Argus Python (sandboxed)");
    expect(spec.language).toBe("python");
    expect(spec.interrupt_mode).toBe("signal");
  });

  it("carries the limits, the sandbox kind and the package directory as strings in env", () => {
    writeKernelspec(options());
    expect(readSpec().env).toEqual({
      ARGUS_KERNEL_MEMORY_MB: "2048",
      ARGUS_KERNEL_CPU_SECONDS: "600",
      ARGUS_KERNEL_MAX_PROCESSES: "128",
      ARGUS_SANDBOX: "bubblewrap",
      ARGUS_KERNEL_PRELOAD: "none",
      ARGUS_PYTHON_PACKAGE_DIR: "/srv/argus/python",
    });
  });

  it("passes the kernels' niceness when one is configured, and refuses one outside 0–19", () => {
    writeKernelspec(options({ niceness: 5 }));
    expect(readSpec().env.ARGUS_KERNEL_NICE).toBe("5");
    expect(kernelspecJson(options({ niceness: 0 })).env.ARGUS_KERNEL_NICE).toBe("0");
    for (const bad of [-1, 20, 2.5]) {
      expect(() => kernelspecJson(options({ niceness: bad }))).toThrow(/niceness must be a whole number from 0 to 19/);
    }
  });

  it("asks for the vision preload only when told to", () => {
    writeKernelspec(options({ preload: "vision" }));
    expect(readSpec().env.ARGUS_KERNEL_PRELOAD).toBe("vision");
  });

  it("records an unsandboxed kernel as such", () => {
    writeKernelspec(options({ sandbox: "none" }));
    const spec = readSpec();
    expect(spec.env.ARGUS_SANDBOX).toBe("none");
    expect(spec.metadata.argus.sandbox).toBe("none");
  });

  it("overwrites an older spec and leaves no temporary file behind", () => {
    writeKernelspec(options({ memoryMb: 1024 }));
    writeKernelspec(options({ memoryMb: 8192 }));
    expect(readSpec().env.ARGUS_KERNEL_MEMORY_MB).toBe("8192");
    const dir = path.join(dataDir, "kernels", ARGUS_KERNEL_NAME);
    expect(readdirSync(dir)).toEqual(["kernel.json"]);
    expect(statSync(path.join(dir, "kernel.json")).mode & 0o777).toBe(0o644);
  });

  it("rejects limits that are not positive whole numbers, naming the field", () => {
    expect(() => kernelspecJson(options({ memoryMb: 0 }))).toThrow(/memoryMb must be a positive whole number/);
    expect(() => kernelspecJson(options({ cpuSeconds: 1.5 }))).toThrow(/cpuSeconds/);
  });

  it("rejects relative paths, which would resolve inside each workspace", () => {
    expect(() => kernelspecJson(options({ launcherPath: "python/argus_sandbox/launch_kernel.py" }))).toThrow(
      /launcherPath must be an absolute path/,
    );
    expect(() => kernelspecJson(options({ packageDir: "python" }))).toThrow(/packageDir/);
  });
});
