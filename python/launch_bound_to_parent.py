"""Run a Python module as a child that cannot outlive the process that started it.

Usage: python launch_bound_to_parent.py -m jupyter_server [args...]

Argus starts jupyter-server through this launcher. On Linux it asks the kernel
to send SIGTERM to this process when its parent (the Argus server) dies, for
any reason, including SIGKILL, and then replaces itself with the real program.
The request survives exec. jupyter-server then shuts its kernels down on
SIGTERM, so a crashed Argus leaves no orphaned Jupyter processes behind.
"""
import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def bind_to_parent() -> None:
    parent = os.getppid()
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        return  # not Linux/glibc: fall back to the parent's own shutdown
    # The parent may have died before prctl took effect.
    if os.getppid() != parent:
        sys.exit(1)


if __name__ == "__main__":
    # Argus's jupyter-server extension (python/argus_jupyter) also stops the server once this
    # parent is gone: the signal alone once left a jupyter-server running (see there).
    os.environ["ARGUS_JUPYTER_PARENT_PID"] = str(os.getppid())
    bind_to_parent()
    os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
