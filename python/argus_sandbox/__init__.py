"""Start an Argus Jupyter kernel inside a sandbox.

Kernels run Python that a model wrote, so each one is treated as untrusted.
jupyter-server starts `launch_kernel.py CONNECTION_FILE` (the `argus-python`
kernelspec); the launcher applies resource limits, builds a clean environment
and replaces itself with either bubblewrap (no network, read-only system, only
the session's workspace writable) or, where bubblewrap is unavailable, the
bare kernel.

Standard library only: the launcher runs before anything else is importable.

Modules, one purpose each:
  settings       the ARGUS_* values the kernelspec passes in
  limits         parent-death signal and rlimits
  environment    the kernel's environment, built from scratch
  private_runtime the per-kernel directory that carries the ZeroMQ sockets
  bwrap          the bubblewrap command line
  launch_kernel  the entry point that puts them together
"""
