"""Run a kernel below the server's CPU priority, where Linux actually compares them.

A process's nice value only weighs against processes of its own scheduling
group. With autogroup on (`/proc/sys/kernel/sched_autogroup_enabled` = 1, the
default of most distributions), every session (setsid) is a group of its own,
and jupyter_client starts each kernel in a new session: so a kernel at nice 10
still got a full share against the server, one share per kernel, and twenty
busy kernels left the server a twenty-first of a core (man 7 sched, "The
autogroup feature"). The group's own nice (`/proc/self/autogroup`) is what
weighs against the server's group; the launcher is the first process of the
kernel's session, so setting it here covers bwrap, the kernel and what its
cells start (a cell that starts a new session of its own leaves the group).

Standard library only.
"""
import os
from typing import List, Optional

AUTOGROUP = "/proc/self/autogroup"
AUTOGROUP_SWITCH = "/proc/sys/kernel/sched_autogroup_enabled"


def _autogroup_on(switch: str) -> bool:
    try:
        with open(switch, encoding="ascii") as f:
            return f.read().strip() == "1"
    except OSError:
        return False  # a kernel built without autogroup has no switch


def _lower_process(niceness: int) -> List[str]:
    try:
        if niceness > os.getpriority(os.PRIO_PROCESS, 0):
            os.setpriority(os.PRIO_PROCESS, 0, niceness)
    except OSError as error:
        return [f"could not lower the kernel's priority: {error}"]
    return []


def _autogroup_nice(autogroup: str) -> Optional[int]:
    """The group's nice from its line, e.g. `/autogroup-42 nice 0`; None for no group of its own.

    The file reads empty in init's own group, the root one: a process tree that
    never called setsid stays in it. A kernel there shares it with whatever
    else never left it, and its own nice weighs against theirs directly.
    """
    with open(autogroup, encoding="ascii") as f:
        line = f.read().split()
    return int(line[-1]) if line else None


def lower_autogroup(niceness: int, autogroup: str = AUTOGROUP, switch: str = AUTOGROUP_SWITCH) -> List[str]:
    """Lowers this session's scheduling group to `niceness`, never raises it; the warnings, if any."""
    try:
        group_nice = _autogroup_nice(autogroup)
        # Never raise it: whoever started us may have lowered it further.
        if group_nice is None or group_nice >= niceness:
            return []
        with open(autogroup, "w", encoding="ascii") as f:
            f.write(str(niceness))
    except (OSError, ValueError, IndexError) as error:
        # Autogroup off: the process's own nice already weighs against the
        # server, and the write was only for the case it is switched on later.
        if not _autogroup_on(switch):
            return []
        return [
            f"could not lower the kernel's scheduling group ({autogroup}: {error}); "
            "its nice value counts only against its own processes, so busy kernels slow the server"
        ]
    return []


def lower_priority(niceness: int, autogroup: str = AUTOGROUP, switch: str = AUTOGROUP_SWITCH) -> List[str]:
    """Lowers this process and its autogroup to `niceness` (inherited through exec); the warnings, if any."""
    if niceness <= 0:
        return []
    return _lower_process(niceness) + lower_autogroup(niceness, autogroup, switch)
