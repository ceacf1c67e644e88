"""The only kernelspecs the jupyter-server Argus manages will start.

jupyter_client's `allowed_kernelspecs` hides other specs from the listing, but
`POST /api/kernels {"name": "python3"}` still finds ipykernel's native spec and
starts a kernel with no sandbox. Whoever holds the server's token must get
Argus's sandboxed kernels and nothing else, so lookups by name are filtered too.
"""

from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel


class AllowedKernelSpecManager(KernelSpecManager):
    """A KernelSpecManager that refuses every name outside `allowed_kernelspecs`."""

    def get_kernel_spec(self, kernel_name):
        if self.allowed_kernelspecs and kernel_name.lower() not in {n.lower() for n in self.allowed_kernelspecs}:
            raise NoSuchKernel(kernel_name)
        return super().get_kernel_spec(kernel_name)
