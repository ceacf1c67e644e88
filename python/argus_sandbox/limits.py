"""Tie the kernel's life to jupyter-server and cap what one kernel can consume.

Everything here is inherited across exec, so setting it in the launcher covers
bubblewrap and the kernel it starts.
"""
import ctypes
import os
import resource
import signal
import sys

PR_SET_PDEATHSIG = 1
MIB = 1024 * 1024

# One file may not grow past this. It bounds how much disk a runaway cell can
# fill with a single write loop; Python ignores SIGXFSZ, so the cell sees
# OSError(EFBIG, "File too large") and the kernel lives on. It is per file, not
# a quota: many files can still add up, so workspaces need a disk-usage check
# (or a size-limited filesystem) if that matters.
FILE_SIZE_LIMIT_BYTES = 4 * 1024 * MIB

# Seconds between SIGXCPU (the soft CPU limit) and SIGKILL (the hard one), so a
# cell that catches or ignores SIGXCPU is still stopped.
CPU_GRACE_SECONDS = 2


def bind_to_parent() -> None:
    """SIGTERM this process when jupyter-server dies, for any reason.

    The request survives exec, so it covers bubblewrap (whose --die-with-parent
    then takes the sandboxed kernel down with it) or the bare kernel.
    """
    parent = os.getppid()
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return  # not Linux/glibc: rely on jupyter-server's own shutdown
    # The parent may have died before prctl took effect; nobody would reap us.
    if os.getppid() != parent:
        sys.exit(1)


def _lower(kind: int, soft: int, hard: int) -> None:
    """Set a limit, never above the hard limit we were given (only root may raise it)."""
    _, current_hard = resource.getrlimit(kind)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(kind, (soft, hard))


def apply_limits(memory_mb: int, cpu_seconds: int) -> None:
    # Address space rather than RSS: the only memory cap a process can set on
    # itself without cgroups. Past it, allocations fail and Python raises
    # MemoryError in the cell instead of the host's OOM killer picking a victim.
    memory = memory_mb * MIB
    _lower(resource.RLIMIT_AS, memory, memory)
    # Cumulative CPU time of each process (the kernel's threads included). At
    # the soft limit the kernel receives SIGXCPU and dies; jupyter-server sees
    # a dead kernel. Child processes a cell starts count separately.
    _lower(resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + CPU_GRACE_SECONDS)
    # A crashing native library must not write a memory-sized core file.
    _lower(resource.RLIMIT_CORE, 0, 0)
    _lower(resource.RLIMIT_FSIZE, FILE_SIZE_LIMIT_BYTES, FILE_SIZE_LIMIT_BYTES)
