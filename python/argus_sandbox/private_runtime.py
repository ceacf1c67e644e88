"""A per-kernel directory that carries the kernel's ZeroMQ ipc sockets.

jupyter-server's runtime directory holds every kernel's connection file (with
its HMAC key) and sockets, so it must not be visible inside a sandbox: a kernel
that could read it could drive another session's kernel. Instead each kernel
gets its own directory next to its connection file:

    <runtime>/sandbox-<kernel id>/         mode 0700
        runtime/                           bound at SANDBOX_RUNTIME inside
            kernel-<id>.json               copy, `ip` rewritten to SANDBOX_RUNTIME
            kernel-<id>-ipc-<port>         the sockets, created by the kernel
        etc/passwd, etc/group              a one-user account database

and on the host each socket path jupyter-server uses, `<ip>-<port>`, is a
symlink into `runtime/`, so jupyter-server connects to the sockets the
sandboxed kernel bound. The sandbox sees its sockets under a neutral path
(SANDBOX_RUNTIME), so no host path leaks into it either.

The launcher replaces itself with the kernel and cannot clean up afterwards;
jupyter_client removes the symlinks (cleanup_ipc_files) and, when the kernel is
shut down for good, the connection file. `sweep_orphans` then removes the
private directories whose connection file is gone; every launch runs it.
"""
import json
import os
import re
import shutil
from dataclasses import dataclass
from typing import Dict, List

SANDBOX_RUNTIME = "/run/jupyter"
PORT_NAMES = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")
_PREFIX = "sandbox-"
_SWEEP_MIN_AGE_SECONDS = 60
_CONNECTION_FILE = re.compile(r"^kernel-(?P<id>.+)\.json$")


@dataclass(frozen=True)
class PrivateRuntime:
    root: str  # host path of the private directory
    runtime: str  # host path bound at SANDBOX_RUNTIME
    connection_file_inside: str
    passwd: str
    group: str
    transport: str


def kernel_id(connection_file: str) -> str:
    """`kernel-<id>.json` -> `<id>`, made safe to use in a directory name."""
    name = os.path.basename(connection_file)
    match = _CONNECTION_FILE.match(name)
    raw = match.group("id") if match else os.path.splitext(name)[0]
    return re.sub(r"[^A-Za-z0-9._-]", "_", raw)


def private_dir_for(connection_file: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(connection_file)), _PREFIX + kernel_id(connection_file))


def read_connection_info(connection_file: str) -> Dict[str, object]:
    try:
        with open(connection_file, encoding="utf-8") as f:
            info = json.load(f)
    except (OSError, ValueError) as error:
        raise RuntimeError(f"cannot read the kernel connection file {connection_file}: {error}") from error
    missing = [name for name in PORT_NAMES + ("ip", "transport") if name not in info]
    if missing:
        raise RuntimeError(f"connection file {connection_file} lacks {', '.join(missing)}")
    return info


def socket_paths(ip: str, info: Dict[str, object]) -> List[str]:
    """The paths ZeroMQ binds for ipc: `<ip>-<port>` for each of the five channels."""
    return [f"{ip}-{info[name]}" for name in PORT_NAMES]


def _write_private(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def prepare(connection_file: str, uid: int, gid: int) -> PrivateRuntime:
    connection_file = os.path.abspath(connection_file)
    info = read_connection_info(connection_file)
    root = private_dir_for(connection_file)
    # A restart reuses the connection file and the ports; start from a clean
    # directory so no socket of the previous kernel is left in the way.
    shutil.rmtree(root, ignore_errors=True)
    os.mkdir(root, 0o700)
    runtime = os.path.join(root, "runtime")
    etc = os.path.join(root, "etc")
    os.mkdir(runtime, 0o700)
    os.mkdir(etc, 0o700)

    transport = str(info["transport"])
    inside = dict(info)
    if transport == "ipc":
        host_ip = str(info["ip"])
        inside["ip"] = f"{SANDBOX_RUNTIME}/{os.path.basename(host_ip)}"
        for host_path, inside_path in zip(socket_paths(host_ip, info), socket_paths(str(inside["ip"]), info)):
            target = os.path.join(runtime, os.path.basename(inside_path))
            if os.path.lexists(host_path):
                os.remove(host_path)  # a stale socket or link from an earlier run
            # Relative, so the link keeps working if the runtime tree is moved.
            os.symlink(os.path.relpath(target, os.path.dirname(host_path)), host_path)
    name = os.path.basename(connection_file)
    _write_private(os.path.join(runtime, name), json.dumps(inside, indent=1))

    passwd = os.path.join(etc, "passwd")
    group = os.path.join(etc, "group")
    # Some libraries look the current user up (pwd.getpwuid); without an entry
    # they fail with "uid not found". One account, nothing of the host's.
    _write_private(passwd, f"argus:x:{uid}:{gid}:Argus kernel:/workspace:/usr/sbin/nologin\n")
    _write_private(group, f"argus:x:{gid}:\n")
    for path in (passwd, group):
        os.chmod(path, 0o644)
    return PrivateRuntime(
        root=root,
        runtime=runtime,
        connection_file_inside=f"{SANDBOX_RUNTIME}/{name}",
        passwd=passwd,
        group=group,
        transport=transport,
    )


def _connection_file_names(private_root: str) -> List[str]:
    try:
        return [n for n in os.listdir(os.path.join(private_root, "runtime")) if n.endswith(".json")]
    except OSError:
        return []


def sweep_orphans(runtime_dir: str, now: float) -> None:
    """Remove private directories of kernels whose connection file is gone.

    jupyter-server writes the connection file before it starts a kernel and
    deletes it only after the kernel is stopped for good, so a directory whose
    connection file (same name as the copy inside it) is gone belongs to no
    live kernel. Young directories are left alone: another launcher may be
    filling one in right now.
    """
    try:
        names = os.listdir(runtime_dir)
    except OSError:
        return
    for name in names:
        root = os.path.join(runtime_dir, name)
        if not name.startswith(_PREFIX) or not os.path.isdir(root) or os.path.islink(root):
            continue
        try:
            if now - os.stat(root).st_mtime < _SWEEP_MIN_AGE_SECONDS:
                continue
        except OSError:
            continue
        if not any(os.path.exists(os.path.join(runtime_dir, n)) for n in _connection_file_names(root)):
            shutil.rmtree(root, ignore_errors=True)
