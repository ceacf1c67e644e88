import { ARGUS_KERNEL_NAME } from "./kernelspec";

/**
 * The jupyter-server flags every server that runs Argus's kernels gets: the one Argus starts for
 * itself (jupyter-server.ts) and the shared host of the deployed layout (jupyter-host.ts). One
 * list, so the deploy's server is never weaker than the local one.
 */
export function hardenedServerArgs(): string[] {
  return [
    "--ServerApp.password=",
    "--ServerApp.disable_check_xsrf=False",
    // Whoever holds the token gets Argus's sandboxed kernels and nothing
    // more: no terminals (a shell outside the sandbox), no native
    // `python3` kernelspec (a kernel outside it).
    "--ServerApp.terminals_enabled=False",
    "--KernelSpecManager.ensure_native_kernel=False",
    "--ServerApp.kernel_spec_manager_class=argus_jupyter.kernelspecs.AllowedKernelSpecManager",
    `--KernelSpecManager.allowed_kernelspecs=${JSON.stringify([ARGUS_KERNEL_NAME])}`,
    `--MappingKernelManager.default_kernel_name=${ARGUS_KERNEL_NAME}`,
    // Argus's extension: kernel websockets without Nagle delay (python/argus_jupyter).
    '--ServerApp.jpserver_extensions={"argus_jupyter": True}',
    // Notice a dead kernel within a second, not three.
    "--KernelRestarter.time_to_dead=1.0",
    // The defaults (1 MB/s) drop a cell's 10 MB of stdout entirely. Argus keeps
    // a head and a tail of big outputs itself; this limit only protects the
    // server's event loop from a kernel printing in a tight loop.
    "--ServerApp.iopub_data_rate_limit=20000000",
    "--ServerApp.iopub_msg_rate_limit=10000",
  ];
}

/** Unix-socket ZeroMQ channels: the bubblewrapped kernel then has no network at all (bwrap.py). */
export const IPC_TRANSPORT_ARG = "--KernelManager.transport=ipc";
