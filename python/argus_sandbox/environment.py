"""The kernel's environment, built from nothing.

jupyter-server's own environment (and whatever the Argus server or the person
running it had exported) never reaches model-written code: API keys, tokens and
database URLs stay out of `os.environ` in the kernel.
"""
from typing import Dict, Optional

from .settings import Settings


def kernel_environment(
    *,
    home: str,
    tmp: str,
    package_dir: Optional[str],
    settings: Settings,
    limits: str = "rlimit",
) -> Dict[str, str]:
    """`home` and `package_dir` are paths as the kernel sees them; `tmp` is its scratch root.

    JPY_PARENT_PID, which jupyter_client sets, is left out on purpose: with it
    ipykernel exits as soon as its parent process is PID 1, and inside the
    sandbox's PID namespace the parent (bubblewrap's init) always is. The
    parent-death signal set by the launcher does that job instead.
    """
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        # HOME is the workspace so `~/result.png` ends up where the person's
        # files are; the caches below keep tool clutter out of it.
        "HOME": home,
        "USER": "argus",
        "LOGNAME": "argus",
        "TMPDIR": tmp,
        "MPLCONFIGDIR": f"{tmp}/matplotlib",
        "IPYTHONDIR": f"{tmp}/ipython",
        "XDG_CACHE_HOME": f"{tmp}/cache",
        "XDG_CONFIG_HOME": f"{tmp}/config",
        "PYTHONDONTWRITEBYTECODE": "1",
        # Numeric libraries otherwise start one thread per host core in every
        # kernel; a handful of sessions would then oversubscribe the machine.
        "OMP_NUM_THREADS": "2",
        "OPENBLAS_NUM_THREADS": "2",
        "MKL_NUM_THREADS": "2",
        # glibc gives each thread that allocates its own 64 MiB malloc arena.
        # That is address space, not memory, but RLIMIT_AS counts it: an idle
        # kernel (about ten threads) would use ~0.5 GiB of the limit on arenas.
        "MALLOC_ARENA_MAX": "2",
        # A kernel that crashes in native code (a segfault in a library) prints
        # the Python stack it crashed in to its stderr, which jupyter-server
        # puts in the server's log: otherwise it only vanishes ("the kernel died").
        "PYTHONFAULTHANDLER": "1",
        # debugpy on Python 3.11 warns about frozen modules at every start.
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        # Not secrets: lets the helper package report the limits it runs under.
        "ARGUS_SANDBOX": settings.sandbox,
        "ARGUS_KERNEL_MEMORY_MB": str(settings.memory_mb),
        "ARGUS_KERNEL_CPU_SECONDS": str(settings.cpu_seconds),
        "ARGUS_KERNEL_MAX_PROCESSES": str(settings.max_processes),
        # How memory and process count are held: "cgroup-v2"/"cgroup-v1" for
        # the whole kernel, "rlimit" per process only (see cgroups.py).
        "ARGUS_KERNEL_LIMITS": limits,
    }
    if package_dir:
        env["PYTHONPATH"] = package_dir
    return env
