"""The launcher's settings, read from the ARGUS_* variables of the kernelspec's `env`."""
import os
from dataclasses import dataclass
from typing import Mapping, Optional

DEFAULT_MEMORY_MB = 4096
DEFAULT_CPU_SECONDS = 3600
# Processes and threads of one kernel together (a cgroup's pids.max): an idle
# kernel has about a dozen threads, numeric libraries a few more per process.
DEFAULT_MAX_PROCESSES = 128
SANDBOX_KINDS = ("bubblewrap", "none")
# What a kernel imports before it reports ready (see argus/preload.py): "vision"
# makes the first cell cheap at ~2 s of CPU per kernel start, paid in the pool.
PRELOAD_KINDS = ("vision", "none")
# Kernels run below the server's priority: under load (twenty sessions' cells on
# two cores) the server must still get the CPU to deliver events and answer
# requests. 10 on the 0-19 scale; a sandboxed kernel cannot raise it back.
DEFAULT_NICENESS = 10


class SettingsError(ValueError):
    """A kernelspec value the launcher cannot use; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    memory_mb: int
    cpu_seconds: int
    max_processes: int
    sandbox: str
    package_dir: Optional[str]
    preload: str = "none"
    niceness: int = DEFAULT_NICENESS


def _positive_int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, got {raw!r}") from None
    if value <= 0:
        raise SettingsError(f"{name} must be greater than 0, got {value}")
    return value


def read_settings(env: Mapping[str, str] = os.environ) -> Settings:
    # Missing ARGUS_SANDBOX means bubblewrap: an unconfigured launcher must fail
    # closed (refuse to start) rather than quietly run an unsandboxed kernel.
    sandbox = env.get("ARGUS_SANDBOX", "").strip() or "bubblewrap"
    if sandbox not in SANDBOX_KINDS:
        raise SettingsError(f"ARGUS_SANDBOX must be one of {', '.join(SANDBOX_KINDS)}, got {sandbox!r}")
    preload = env.get("ARGUS_KERNEL_PRELOAD", "").strip() or "none"
    if preload not in PRELOAD_KINDS:
        raise SettingsError(f"ARGUS_KERNEL_PRELOAD must be one of {', '.join(PRELOAD_KINDS)}, got {preload!r}")
    package_dir = env.get("ARGUS_PYTHON_PACKAGE_DIR", "").strip() or None
    if package_dir is not None:
        package_dir = os.path.abspath(package_dir)
    niceness_raw = env.get("ARGUS_KERNEL_NICE", "").strip()
    try:
        niceness = int(niceness_raw) if niceness_raw else DEFAULT_NICENESS
    except ValueError:
        raise SettingsError(f"ARGUS_KERNEL_NICE must be a whole number from 0 to 19, got {niceness_raw!r}") from None
    if not 0 <= niceness <= 19:
        raise SettingsError(f"ARGUS_KERNEL_NICE must be a whole number from 0 to 19, got {niceness}")
    return Settings(
        memory_mb=_positive_int(env, "ARGUS_KERNEL_MEMORY_MB", DEFAULT_MEMORY_MB),
        cpu_seconds=_positive_int(env, "ARGUS_KERNEL_CPU_SECONDS", DEFAULT_CPU_SECONDS),
        max_processes=_positive_int(env, "ARGUS_KERNEL_MAX_PROCESSES", DEFAULT_MAX_PROCESSES),
        sandbox=sandbox,
        package_dir=package_dir,
        preload=preload,
        niceness=niceness,
    )
