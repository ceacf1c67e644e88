"""Put one kernel, and everything it starts, in its own cgroup.

Rlimits are per process: a cell that forks 300 children, or three children
each just under the address-space limit, gets around them. A cgroup's
`pids.max` and memory limit count the whole kernel instead. The launcher
moves itself in before it execs bubblewrap, so bwrap, the kernel and every
process a cell starts are inside, and the sandbox cannot move out (it has no
capabilities and no view of /sys/fs/cgroup).

Each kernel's group is `argus-kernels/<kernel>` below the launcher's own
cgroup, in each hierarchy: nested, so whatever limits the machine already puts
on Argus still hold. cgroup v2 when the unified hierarchy offers both
controllers there; otherwise the v1 `pids` and `memory` hierarchies; when
neither is writable (no root, no delegation) the caller keeps only its rlimits.

A group outlives its kernel as an empty directory; every launch removes its
empty siblings (`rmdir` refuses a group that still has processes, so a live
kernel's group is never taken). A group made in the last minute is left alone
even when empty: its launcher may not have joined it yet, and on a busy machine
a launcher at low priority can wait that long between making its group and
joining it (a sibling's sweep took it three times over, and the kernel ran with
rlimits only).

Standard library only.
"""
import errno
import os
import re
import time
from typing import Dict, List, Optional, Tuple

CGROUP_ROOT = "/sys/fs/cgroup"
PARENT = "argus-kernels"
# What a kernel reports it runs under (ARGUS_KERNEL_LIMITS, /api/health).
KINDS = ("cgroup-v2", "cgroup-v1", "rlimit")
# An empty group younger than this may be one a launcher is still joining (see above).
YOUNG_SECONDS = 60.0

_NAME = re.compile(r"[^A-Za-z0-9._-]")


class CgroupError(OSError):
    pass


def group_name(connection_file: str) -> str:
    """`kernel-<id>` from jupyter's `kernel-<id>.json`: unique per kernel and safe as a directory name."""
    base = os.path.basename(connection_file)
    if base.endswith(".json"):
        base = base[: -len(".json")]
    name = _NAME.sub("_", base).lstrip(".") or "kernel"
    return name[:200]


def _own_cgroups(proc_cgroup: str) -> Dict[str, str]:
    """Hierarchy key ("" for v2, else each controller name) → this process's path in it."""
    found: Dict[str, str] = {}
    with open(proc_cgroup, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) != 3:
                continue
            _, controllers, path = parts
            if controllers == "":
                found[""] = path
            for controller in controllers.split(","):
                if controller:
                    found[controller] = path
    return found


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="ascii") as f:
        f.write(value)


def _read(path: str) -> str:
    with open(path, encoding="ascii") as f:
        return f.read()


def _inside(base: str, path: str) -> str:
    # /proc/self/cgroup paths start with "/"; the result must stay under base.
    joined = os.path.normpath(os.path.join(base, path.lstrip("/")))
    if joined != base and not joined.startswith(base + os.sep):
        raise CgroupError(errno.EINVAL, f"cgroup path {path!r} leaves {base}")
    return joined


def sweep_empty(parent: str, keep: str = "", now: Optional[float] = None) -> None:
    """Remove the empty kernel groups under `parent` older than YOUNG_SECONDS; groups with processes
    stay (rmdir fails). Age is the directory's mtime: when it was made, or later (cgroupfs may
    date a group from when its inode was last looked up), never earlier; joining changes no entry."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    young_since = (time.time() if now is None else now) - YOUNG_SECONDS
    for name in names:
        path = os.path.join(parent, name)
        if name == keep or not os.path.isdir(path):
            continue
        try:
            if os.stat(path).st_mtime > young_since:
                continue
            os.rmdir(path)
        except OSError:
            pass  # busy (a live kernel), or already gone


def _make_group(parent: str, name: str) -> str:
    os.makedirs(parent, exist_ok=True)
    sweep_empty(parent, keep=name)
    path = os.path.join(parent, name)
    os.makedirs(path, exist_ok=True)
    return path


def _join(group: str) -> None:
    _write(os.path.join(group, "cgroup.procs"), str(os.getpid()))


def _v2_parent(root: str, own: Dict[str, str]) -> Optional[str]:
    """The v2 parent group with pids and memory available to its children, or None."""
    if "" not in own:
        return None
    for mount in (root, os.path.join(root, "unified")):
        if os.path.isfile(os.path.join(mount, "cgroup.controllers")):
            break
    else:
        return None
    here = _inside(mount, own[""])
    wanted = {"memory", "pids"}
    if not wanted <= set(_read(os.path.join(here, "cgroup.controllers")).split()):
        return None
    if not wanted <= set(_read(os.path.join(here, "cgroup.subtree_control")).split()):
        # Fails (EBUSY) when our own group has processes, which it usually
        # does: then the machine has to delegate a group to Argus (systemd's
        # Delegate=yes); until then the rlimits are what holds.
        _write(os.path.join(here, "cgroup.subtree_control"), "+memory +pids")
    parent = os.path.join(here, PARENT)
    os.makedirs(parent, exist_ok=True)
    if not wanted <= set(_read(os.path.join(parent, "cgroup.subtree_control")).split()):
        _write(os.path.join(parent, "cgroup.subtree_control"), "+memory +pids")
    return parent


def _confine_v2(parent: str, name: str, memory_bytes: int, max_processes: int) -> None:
    group = _make_group(parent, name)
    _write(os.path.join(group, "memory.max"), str(memory_bytes))
    if os.path.exists(os.path.join(group, "memory.swap.max")):
        # Swap would let the kernel hold more than its limit, only slower.
        _write(os.path.join(group, "memory.swap.max"), "0")
    _write(os.path.join(group, "pids.max"), str(max_processes))
    _join(group)


def _confine_v1(root: str, own: Dict[str, str], name: str, memory_bytes: int, max_processes: int) -> None:
    groups: List[Tuple[str, str]] = []  # (the group, where this process was)
    for controller in ("pids", "memory"):
        mount = os.path.join(root, controller)
        if controller not in own or not os.path.isfile(os.path.join(mount, "cgroup.procs")):
            raise CgroupError(errno.ENOTSUP, f"no v1 {controller} hierarchy")
        here = _inside(mount, own[controller])
        groups.append((_make_group(os.path.join(here, PARENT), name), here))
    (pids_group, _), (memory_group, _) = groups
    _write(os.path.join(pids_group, "pids.max"), str(max_processes))
    _write(os.path.join(memory_group, "memory.limit_in_bytes"), str(memory_bytes))
    memsw = os.path.join(memory_group, "memory.memsw.limit_in_bytes")
    if os.path.exists(memsw):
        _write(memsw, str(memory_bytes))
    joined: List[str] = []
    try:
        for group, _ in groups:
            _join(group)
            joined.append(group)
    except OSError:
        # All or nothing: back to where this process was in every hierarchy.
        for (group, here) in groups[: len(joined)]:
            _join(here)
        raise


def confine(
    connection_file: str,
    memory_bytes: int,
    max_processes: int,
    root: str = CGROUP_ROOT,
    proc_cgroup: str = "/proc/self/cgroup",
) -> Tuple[str, str]:
    """Move this process into a fresh group with these limits.

    Returns (kind, why): kind is one of KINDS; `why` says why cgroups were not
    used when kind is "rlimit". A sibling launcher's sweep can remove our group
    between mkdir and joining it, so each kind is tried a few times.
    """
    name = group_name(connection_file)
    try:
        own = _own_cgroups(proc_cgroup)
    except OSError as error:
        return "rlimit", f"cannot read {proc_cgroup}: {error.strerror}"
    reasons: List[str] = []
    try:
        v2_parent = _v2_parent(root, own)
    except OSError as error:
        v2_parent = None
        reasons.append(f"cgroup v2: {error.strerror or error}")
    attempts = (
        ([("cgroup-v2", lambda: _confine_v2(v2_parent, name, memory_bytes, max_processes))] if v2_parent else [])
        + [("cgroup-v1", lambda: _confine_v1(root, own, name, memory_bytes, max_processes))]
    )
    for kind, attempt in attempts:
        last: Optional[OSError] = None
        for _ in range(3):
            try:
                attempt()
                return kind, ""
            except OSError as error:
                last = error
                if error.errno != errno.ENOENT:
                    break
        reasons.append(f"{kind}: {last.strerror if last and last.strerror else last}")
    return "rlimit", "; ".join(reasons)


def probe(root: str = CGROUP_ROOT, proc_cgroup: str = "/proc/self/cgroup", prefix: str = "probe") -> Tuple[str, str]:
    """What a kernel launched now would run under, found by doing it: a forked
    child confines itself in a probe group (`<prefix>-<its pid>`) and exits, and
    the group is removed."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            kind, why = confine(_probe_name(prefix, os.getpid()), 64 * 1024 * 1024, 16, root, proc_cgroup)
            os.write(write_end, f"{kind}\n{why}".encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        answer = f.read().decode(errors="replace")
    os.waitpid(pid, 0)
    kind, _, why = answer.partition("\n")
    # The probe's own group is young, so the sweep keeps it: it is removed by name (its child is gone).
    _sweep_all(root, proc_cgroup, also=group_name(_probe_name(prefix, pid)))
    return (kind if kind in KINDS else "rlimit"), why


def _probe_name(prefix: str, pid: int) -> str:
    return f"{prefix}-{pid}"


def _sweep_all(root: str, proc_cgroup: str, also: str = "") -> None:
    """Remove empty kernel groups in every hierarchy this process is in, and the group `also` however young."""
    try:
        own = _own_cgroups(proc_cgroup)
    except OSError:
        return
    mounts = [(os.path.join(root, c), c) for c in ("pids", "memory")]
    mounts += [(root, ""), (os.path.join(root, "unified"), "")]
    for mount, key in mounts:
        if key in own and os.path.isfile(os.path.join(mount, "cgroup.procs")):
            try:
                parent = os.path.join(_inside(mount, own[key]), PARENT)
                if also:
                    try:
                        os.rmdir(os.path.join(parent, also))
                    except OSError:
                        pass  # not made in this hierarchy, or already gone
                sweep_empty(parent)
            except OSError:
                pass


if __name__ == "__main__":
    # `python -m argus_sandbox.cgroups --probe`: the Argus server asks at start,
    # for /api/health, and the sweep clears groups left by kernels that are gone.
    import sys

    if sys.argv[1:] != ["--probe"]:
        print("usage: python -m argus_sandbox.cgroups --probe", file=sys.stderr)
        sys.exit(2)
    found, reason = probe()
    print(found)
    if reason:
        print(reason)
