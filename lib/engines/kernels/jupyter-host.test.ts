import { describe, expect, it } from "vitest";
import { hostKernelspec, hostServerArgs, parseJupyterHostEnv } from "./jupyter-host";
import { hardenedServerArgs } from "./jupyter-server-args";

const TOKEN = "a".repeat(48);

describe("parseJupyterHostEnv", () => {
  it("sandboxes with bubblewrap and culls after 30 minutes unless told otherwise", () => {
    const env = parseJupyterHostEnv({ JUPYTER_TOKEN: TOKEN }, "/home/argus");
    expect(env).toMatchObject({
      ARGUS_SANDBOX: "bubblewrap",
      ARGUS_JUPYTER_IP: "0.0.0.0",
      ARGUS_JUPYTER_PORT: 8888,
      ARGUS_JUPYTER_ROOT: "/work",
      ARGUS_JUPYTER_STATE: "/home/argus/.argus-jupyter",
      ARGUS_JUPYTER_CULL_IDLE_MINUTES: 30,
    });
  });

  it("refuses a missing or short token, a relative root and an unknown sandbox, naming the setting", () => {
    expect(() => parseJupyterHostEnv({}, "/h")).toThrow(/^Invalid configuration: JUPYTER_TOKEN: /);
    expect(() => parseJupyterHostEnv({ JUPYTER_TOKEN: "short" }, "/h")).toThrow(/JUPYTER_TOKEN: set a token of at least 16/);
    expect(() => parseJupyterHostEnv({ JUPYTER_TOKEN: TOKEN, ARGUS_JUPYTER_ROOT: "work" }, "/h")).toThrow(/ARGUS_JUPYTER_ROOT: use an absolute path/);
    expect(() => parseJupyterHostEnv({ JUPYTER_TOKEN: TOKEN, ARGUS_SANDBOX: "auto" }, "/h")).toThrow(/ARGUS_SANDBOX/);
  });
});

describe("the host's kernelspec and server", () => {
  const env = parseJupyterHostEnv({ JUPYTER_TOKEN: TOKEN, ARGUS_JUPYTER_CULL_IDLE_MINUTES: "45", ARGUS_KERNEL_MEMORY_MB: "3072" }, "/home/argus");

  it("writes the argus-python spec: the sandbox launcher and the helper package, with the host's limits", () => {
    expect(hostKernelspec(env, "/app/python")).toEqual({
      jupyterDataDir: "/home/argus/.argus-jupyter/data",
      python: "/usr/bin/python3",
      launcherPath: "/app/python/argus_sandbox/launch_kernel.py",
      packageDir: "/app/python",
      memoryMb: 3072,
      cpuSeconds: 3600,
      maxProcesses: 128,
      niceness: 10,
      sandbox: "bubblewrap",
      preload: "vision",
    });
  });

  it("starts jupyter-server with Argus's own hardening, ipc channels and culling of unconnected idle kernels", () => {
    const args = hostServerArgs(env);
    expect(args.slice(0, 2)).toEqual(["-m", "jupyter_server"]);
    for (const flag of hardenedServerArgs()) expect(args).toContain(flag);
    expect(args).toContain("--KernelManager.transport=ipc");
    expect(args).toContain("--ServerApp.port=8888");
    expect(args).toContain("--ServerApp.root_dir=/work");
    expect(args).toContain("--MappingKernelManager.cull_idle_timeout=2700");
    expect(args).toContain("--MappingKernelManager.cull_interval=60");
    expect(args).toContain("--MappingKernelManager.cull_connected=False");
    expect(args.join(" ")).not.toContain(TOKEN);
    expect(args).not.toContain("--allow-root");
  });
});
