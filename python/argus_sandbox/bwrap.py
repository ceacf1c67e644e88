"""The bubblewrap command line for one kernel.

What the kernel sees: a read-only system (/usr and the few /etc entries Python,
fontconfig, matplotlib and BLAS read), a private /proc, /dev and /tmp, its
workspace read-write at /workspace, the Argus helper package read-only at
/opt/argus/python and its own sockets at SANDBOX_RUNTIME. Nothing else of the
host: not the data directory, not argus.db, not other workspaces, not the
repository, not the network.
"""
import glob
import os
import shutil
import subprocess
import sys
from typing import Dict, FrozenSet, List, Optional

from .private_runtime import SANDBOX_RUNTIME, PrivateRuntime

WORKSPACE = "/workspace"
PACKAGE_DIR = "/opt/argus/python"
TMP = "/tmp"
# POSIX shared memory and semaphores (multiprocessing's locks) need /dev/shm;
# Docker gives containers 64 MiB there by default.
SHM_SIZE_BYTES = 64 * 1024 * 1024

# Top-level system directories. On merged-/usr systems they are symlinks into
# /usr and are recreated as the same symlinks; elsewhere they are real
# directories and are bound read-only.
_SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")

# The /etc entries the kernel's libraries read. The rest of /etc (users,
# hosts, ssh and TLS configuration, package manager state...) stays out.
_ETC_ENTRIES = (
    "/etc/alternatives",  # libblas/liblapack resolve through here
    "/etc/fonts",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/matplotlibrc",
    "/etc/mime.types",  # Python's mimetypes
)


def find_bwrap() -> Optional[str]:
    return shutil.which("bwrap") or shutil.which("bwrap", path="/usr/bin:/usr/local/bin")


def supported_options(bwrap: str) -> FrozenSet[str]:
    """Options this bwrap knows, from its --help (a few milliseconds)."""
    try:
        text = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(word for word in text.split() if word.startswith("--"))


def _system_args() -> List[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for path in _SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in _ETC_ENTRIES + tuple(sorted(glob.glob("/etc/python3*"))):
        args += ["--ro-bind-try", path, path]
    # A venv or a Python built outside /usr (pyenv, conda) lives elsewhere.
    for prefix in sorted({sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}):
        real = os.path.realpath(prefix)
        if real != "/usr" and not real.startswith("/usr/"):
            args += ["--ro-bind", prefix, prefix]
            if real != prefix:
                args += ["--ro-bind", real, real]
    return args


def bwrap_command(
    *,
    bwrap: str,
    options: FrozenSet[str],
    workspace_fd: Optional[int],
    workspace_path: str,
    package_dir: Optional[str],
    private: PrivateRuntime,
    env: Dict[str, str],
    tmp_size_bytes: int,
    kernel_argv: List[str],
) -> List[str]:
    args = [bwrap, "--unshare-all"]
    if private.transport != "ipc":
        # TCP sockets live in a network namespace, so the kernel must share the
        # host's; the caller warns that the sandbox then has network access.
        args.append("--share-net")
    # No --new-session: jupyter_client interrupts by signalling the kernel's
    # process group, which must stay the launcher's.
    args += ["--die-with-parent", "--cap-drop", "ALL", "--hostname", "argus-kernel"]
    args += _system_args()
    args += ["--proc", "/proc", "--dev", "/dev"]
    # Every tmpfs is RAM that the address-space limit does not cover: each
    # writable one is sized, and /dev and the root (bwrap's own tmpfs, which
    # it cannot size) are made read-only below. Where the kernel has a cgroup,
    # tmpfs pages also count against its memory limit.
    if "--size" in options:
        args += ["--size", str(SHM_SIZE_BYTES)]
    args += ["--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    if "--size" in options:
        args += ["--size", str(tmp_size_bytes)]
    args += ["--tmpfs", TMP]
    # Bind the workspace through an open descriptor when the caller has one
    # (bwrap >= 0.8): the directory may be renamed on the host (pooled kernels
    # move from sessions/_pool/<slot> to sessions/<id>) at any moment, and a
    # descriptor names the directory itself. Either way the bind then follows
    # the inode, so later renames do not matter.
    if workspace_fd is not None:
        args += ["--bind-fd", str(workspace_fd), WORKSPACE]
    else:
        args += ["--bind", workspace_path, WORKSPACE]
    if package_dir:
        args += ["--ro-bind", package_dir, PACKAGE_DIR]
    args += ["--bind", private.runtime, SANDBOX_RUNTIME]
    args += ["--ro-bind", private.passwd, "/etc/passwd", "--ro-bind", private.group, "/etc/group"]
    # Last, once every mount point exists: the root itself holds no data.
    args += ["--remount-ro", "/"]
    args += ["--chdir", WORKSPACE, "--clearenv"]
    for name, value in sorted(env.items()):
        args += ["--setenv", name, value]
    return args + ["--"] + kernel_argv
