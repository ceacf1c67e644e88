"""Start one Argus kernel, sandboxed: `python launch_kernel.py CONNECTION_FILE`.

This is the argv of the `argus-python` kernelspec. jupyter-server runs it with
the session's workspace as the current directory and the ARGUS_* settings in
the environment. It never returns: after setting limits it replaces itself
with bubblewrap running the kernel, or with the bare kernel when
ARGUS_SANDBOX=none. Standard library only.
"""
import os
import signal
import sys
import time
from typing import List, NoReturn, Optional

if __package__ in (None, ""):
    # Run as a script: make `argus_sandbox` importable, and drop this file's own
    # directory from the path so its module names cannot shadow the stdlib's.
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from argus_sandbox import bwrap, cgroups, priority, private_runtime  # noqa: E402
from argus_sandbox.environment import kernel_environment  # noqa: E402
from argus_sandbox.limits import MIB, apply_limits, bind_to_parent  # noqa: E402
from argus_sandbox.settings import Settings, SettingsError, read_settings  # noqa: E402

# Run in the kernel before the first cell. Guarded so that a broken helper
# package costs the helpers, never the kernel.
STARTUP_CODE = (
    # A crash in native code (a segfault in a library) prints the Python stack it happened in to
    # the kernel's real stderr, which jupyter-server puts in the server's log. PYTHONFAULTHANDLER
    # (environment.py) covers the start; from here on ipykernel has moved fd 2 into a pipe that its
    # own thread drains, which a crashing process never gets to run, and its streams' fileno() is
    # the original stderr.
    "try:\n"
    "    import faulthandler as _argus_faulthandler, sys as _argus_sys\n"
    "    _argus_faulthandler.enable(file=_argus_sys.stderr.fileno(), all_threads=True)\n"
    "    del _argus_faulthandler, _argus_sys\n"
    "except BaseException as _argus_error:\n"
    "    print(f'argus: crashes are not traced: {_argus_error!r}', file=__import__('sys').__stderr__)\n"
    "try:\n"
    "    from argus import *\n"
    "except BaseException as _argus_error:\n"
    "    import sys as _argus_sys\n"
    "    print(f'argus: helper package not loaded: {_argus_error!r}', file=_argus_sys.__stderr__)\n"
    "    del _argus_sys\n"
    # Big pictures travel as files in the workspace (argus/picture_refs.py);
    # without the hook they still travel, inline.
    "try:\n"
    "    import argus.picture_refs as _argus_picture_refs\n"
    "    _argus_picture_refs.install(get_ipython())\n"
    "    del _argus_picture_refs\n"
    "except BaseException as _argus_error:\n"
    "    import sys as _argus_sys\n"
    "    print(f'argus: big pictures go inline: {_argus_error!r}', file=_argus_sys.__stderr__)\n"
    "    del _argus_sys\n"
    # A cell's printed output is cut to head and tail before it is sent (argus/stream_cap.py).
    "try:\n"
    "    import argus.stream_cap as _argus_stream_cap\n"
    "    _argus_stream_cap.install(get_ipython())\n"
    "    del _argus_stream_cap\n"
    "except BaseException as _argus_error:\n"
    "    import sys as _argus_sys\n"
    "    print(f'argus: output is sent uncut: {_argus_error!r}', file=_argus_sys.__stderr__)\n"
    "    del _argus_sys\n"
)

# With ARGUS_KERNEL_PRELOAD=vision: the libraries cells use, imported while the
# kernel waits in the pool rather than in a person's first cell. Guarded the same way.
PRELOAD_CODE = (
    "try:\n"
    "    import argus.preload as _argus_preload\n"
    "    _argus_preload.vision()\n"
    "    del _argus_preload\n"
    "except BaseException as _argus_error:\n"
    "    import sys as _argus_sys\n"
    "    print(f'argus: vision stack not preloaded: {_argus_error!r}', file=_argus_sys.__stderr__)\n"
    "    del _argus_sys\n"
)


def startup_code(preload: str) -> str:
    return STARTUP_CODE + (PRELOAD_CODE if preload == "vision" else "")


def _say(level: str, message: str) -> None:
    # jupyter-server puts a kernel's stderr in its log, which Argus forwards.
    print(f"argus-sandbox: {level}: {message}", file=sys.stderr, flush=True)


def _fail(message: str) -> NoReturn:
    _say("error", message)
    sys.exit(1)


# ipykernel's launcher, started without the Jupyter debugger. ipykernel imports debugpy as it
# starts (and debugpy imports pkg_resources), about a quarter of the kernel's start: 0.45 -> 0.33
# CPU-s for the imports here, on every kernel start, for a debugger Argus never opens. With
# sys.modules["debugpy"] set to None that import fails and ipykernel starts without one, as it
# does where debugpy is not installed; the entry is removed again, so a cell may still import
# debugpy. Like `python -m ipykernel_launcher`, the working directory (the workspace) is off
# sys.path while ipykernel loads, and IPython puts it back. The first line names it in `ps` (and
# for bench/lib/proc-stats.ts, which tells kernels from other processes by their command line).
KERNEL_MAIN = (
    "# Argus kernel: ipykernel_launcher without the debugger (argus_sandbox/launch_kernel.py)\n"
    "import sys\n"
    "if sys.path and sys.path[0] == '':\n"
    "    del sys.path[0]\n"
    "sys.modules['debugpy'] = None\n"
    "try:\n"
    "    from ipykernel import kernelapp\n"
    "finally:\n"
    "    del sys.modules['debugpy']\n"
    "kernelapp.launch_new_instance()\n"
)


def _kernel_argv(connection_file: str, preload: str) -> List[str]:
    return [
        sys.executable,
        "-c",
        KERNEL_MAIN,
        "-f",
        connection_file,
        f"--IPKernelApp.exec_lines={startup_code(preload)}",
    ]


def _package_dir(settings: Settings) -> Optional[str]:
    path = settings.package_dir
    if path and not os.path.isdir(path):
        _say("warning", f"ARGUS_PYTHON_PACKAGE_DIR {path} is not a directory; the kernel starts without Argus helpers")
        return None
    return path


def _exec_unsandboxed(connection_file: str, workspace: str, settings: Settings, limits: str) -> None:
    _say("warning", "kernel runs WITHOUT a sandbox (ARGUS_SANDBOX=none): it can read and write whatever this user can")
    env = kernel_environment(home=workspace, tmp="/tmp", package_dir=_package_dir(settings), settings=settings, limits=limits)
    argv = _kernel_argv(connection_file, settings.preload)
    os.execve(argv[0], argv, env)


def _exec_bubblewrap(connection_file: str, workspace: str, settings: Settings, limits: str) -> None:
    bwrap_path = bwrap.find_bwrap()
    if not bwrap_path:
        # Fail closed: a missing sandbox must not silently become no sandbox.
        _fail("ARGUS_SANDBOX=bubblewrap but `bwrap` is not installed; install bubblewrap or set ARGUS_SANDBOX=none")
    private_runtime.sweep_orphans(os.path.dirname(connection_file), time.time())
    try:
        private = private_runtime.prepare(connection_file, os.getuid(), os.getgid())
    except (OSError, RuntimeError) as error:
        _fail(f"cannot prepare the kernel's private runtime directory: {error}")
    if private.transport != "ipc":
        _say("warning", f"connection file uses {private.transport!r}, not ipc: the sandbox keeps host network access")
    package_dir = _package_dir(settings)
    env = kernel_environment(
        home=bwrap.WORKSPACE,
        tmp=bwrap.TMP,
        package_dir=bwrap.PACKAGE_DIR if package_dir else None,
        settings=settings,
        limits=limits,
    )
    options = bwrap.supported_options(bwrap_path)
    workspace_fd = None
    if "--bind-fd" in options:
        # O_PATH names the directory itself, whatever it is called by the time
        # bwrap binds it. bwrap closes it after binding; an older bwrap without
        # --bind-fd would pass it into the sandbox, where openat(fd, "..")
        # reaches the host, so it is only opened when bwrap will consume it.
        workspace_fd = os.open(".", os.O_PATH | os.O_DIRECTORY)
        os.set_inheritable(workspace_fd, True)
    argv = bwrap.bwrap_command(
        bwrap=bwrap_path,
        options=options,
        workspace_fd=workspace_fd,
        workspace_path=workspace,
        package_dir=package_dir,
        private=private,
        env=env,
        tmp_size_bytes=settings.memory_mb * MIB,
        kernel_argv=_kernel_argv(private.connection_file_inside, settings.preload),
    )
    # jupyter_client interrupts with SIGINT to the whole process group. bwrap
    # itself would die of it (and take the kernel along), so it must ignore
    # SIGINT; the disposition is inherited, and ipykernel installs its own
    # KeyboardInterrupt handler around every cell, so only the kernel reacts.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # bubblewrap is PID 1 inside the sandbox, and a cell can read its
    # /proc/1/environ and /proc/1/cmdline. So it starts with an empty
    # environment (the kernel's own comes from --setenv), and its arguments,
    # which name host paths, arrive through a pipe (`--args FD`) rather than
    # on its command line.
    # (bwrap takes only options from the pipe; the command after "--" stays
    # on argv, and names only paths inside the sandbox.)
    split = argv.index("--")
    os.execve(bwrap_path, [bwrap_path, "--args", str(_args_pipe(argv[1:split]))] + argv[split:], {})


def _args_pipe(args: List[str]) -> int:
    """A readable pipe holding NUL-separated arguments, inherited by bwrap (which closes it)."""
    data = b"".join(os.fsencode(a) + b"\0" for a in args)
    read_end, write_end = os.pipe()
    # The arguments are a few KB; a pipe holds 64 KB, so this write can't block.
    if len(data) >= 65536:
        _fail("the sandbox's arguments are too long for a pipe")
    os.write(write_end, data)
    os.close(write_end)
    os.set_inheritable(read_end, True)
    return read_end


def main(argv: List[str]) -> None:
    if len(argv) != 2:
        _fail("usage: launch_kernel.py CONNECTION_FILE")
    connection_file = os.path.abspath(argv[1])
    bind_to_parent()
    try:
        settings = read_settings()
    except SettingsError as error:
        _fail(str(error))
    try:
        workspace = os.getcwd()
    except OSError as error:
        _fail(f"the kernel's workspace (current directory) is not usable: {error}")
    apply_limits(settings.memory_mb, settings.cpu_seconds)
    # Below the server, in the kernel's own session's scheduling group too (priority.py).
    for warning in priority.lower_priority(settings.niceness):
        _say("warning", warning)
    # Before bwrap starts: everything it and the kernel start is then inside.
    limits, why = cgroups.confine(connection_file, settings.memory_mb * MIB, settings.max_processes)
    if limits == "rlimit":
        _say("warning", f"no cgroup for this kernel ({why}): memory and process limits hold per process only")
    if settings.sandbox == "none":
        _exec_unsandboxed(connection_file, workspace, settings, limits)
    else:
        _exec_bubblewrap(connection_file, workspace, settings, limits)


if __name__ == "__main__":
    main(sys.argv)
