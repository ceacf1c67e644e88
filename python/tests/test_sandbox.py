"""The kernel sandbox, tested with real kernels started the way jupyter-server starts them.

Each kernel comes from an `argus-python`-style kernelspec (the JSON the TS
writer produces) in a temporary JUPYTER_DATA_DIR, over ipc transport, with the
connection file in a temporary runtime directory and a temporary workspace as
its cwd. The host around it is booby-trapped: an API key in this process's
environment, a fake argus.db, another session's workspace and another
kernel's connection file. The bubblewrap kernel must see none of it.

Run from the repository root:
    /usr/bin/python3 -m unittest discover -s python/tests -t python -p 'test_sandbox.py' -v
"""
import json
import os
import queue
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest
import uuid
from dataclasses import dataclass, field
from typing import IO, Dict, List, Optional

from jupyter_client.manager import KernelManager

from argus_sandbox import bwrap, cgroups, launch_kernel, priority, private_runtime
from argus_sandbox.limits import CPU_GRACE_SECONDS
from argus_sandbox.settings import SettingsError, read_settings

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCHER = os.path.join(PYTHON_DIR, "argus_sandbox", "launch_kernel.py")
HAS_BWRAP = shutil.which("bwrap") is not None
NO_BWRAP = "bubblewrap (bwrap) is not installed"

SECRET = "sk-planted-do-not-leak"
MIB = 1024 * 1024
# cv2 alone maps ~0.4 GiB of shared libraries and an idle kernel ~0.25 GiB of
# address space, so 1 GiB leaves too little to import the vision stack; 2 GiB
# is the smallest comfortable limit and still far below what the test allocates.
TEST_MEMORY_MB = 2048
TEST_CPU_SECONDS = 3
# A detached `sleep` started inside a sandbox; it must not outlive the kernel.
ORPHAN_MARKER = "7413"

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _autogroup_on() -> bool:
    try:
        with open(priority.AUTOGROUP_SWITCH, encoding="ascii") as f:
            return f.read().strip() == "1"
    except OSError:
        return False


AUTOGROUP_ON = _autogroup_on()
NO_AUTOGROUP = "the scheduler's autogroup is off (or not built in): a process's nice is all that counts"


def _autogroup_of(pid: int) -> str:
    """`/autogroup-<n> nice <k>` of a live process, read from the host."""
    with open(f"/proc/{pid}/autogroup", encoding="ascii") as f:
        return f.read().strip()


# ---------------------------------------------------------------- host layout


class Host:
    """A temporary Argus data directory with things the kernel must not reach."""

    def __init__(self) -> None:
        self.base = os.path.realpath(tempfile.mkdtemp(prefix="argus-sandbox-test-"))
        self.data_dir = os.path.join(self.base, "jupyter", "data")
        self.runtime_dir = os.path.join(self.base, "jupyter", "runtime")
        self.sessions = os.path.join(self.base, "sessions")
        self.db = os.path.join(self.base, "argus.db")
        self.other_workspace = os.path.join(self.sessions, "other-session")
        self.other_connection_file = os.path.join(self.runtime_dir, "kernel-other.json")
        for d in (self.data_dir, self.runtime_dir, self.other_workspace):
            os.makedirs(d)
        _write(self.db, "SQLite format 3\0 planted")
        _write(os.path.join(self.other_workspace, "secret.txt"), "other session's data")
        _write(self.other_connection_file, json.dumps({"key": "other-kernel-hmac-key"}))
        self.package_dir = self._package("package", "ARGUS_TEST_HELPERS = 'loaded'\n")
        self.broken_package_dir = self._package("broken-package", "raise RuntimeError('helpers are broken')\n")

    def _package(self, name: str, init: str) -> str:
        directory = os.path.join(self.base, name)
        os.makedirs(os.path.join(directory, "argus"))
        _write(os.path.join(directory, "argus", "__init__.py"), init)
        return directory

    def workspace(self, *parts: str) -> str:
        path = os.path.join(self.sessions, *parts)
        os.makedirs(path)
        return path

    def kernelspec(self, name: str, *, sandbox: str, memory_mb: int = TEST_MEMORY_MB,
                   cpu_seconds: int = 600, package_dir: Optional[str] = None,
                   max_processes: Optional[int] = None) -> str:
        """The same kernel.json as lib/engines/kernels/kernelspec.ts writes."""
        spec = {
            "argv": [sys.executable, LAUNCHER, "{connection_file}"],
            "display_name": "Argus Python (sandboxed)",
            "language": "python",
            "interrupt_mode": "signal",
            "env": {
                "ARGUS_KERNEL_MEMORY_MB": str(memory_mb),
                "ARGUS_KERNEL_CPU_SECONDS": str(cpu_seconds),
                "ARGUS_SANDBOX": sandbox,
                "ARGUS_PYTHON_PACKAGE_DIR": package_dir or self.package_dir,
            },
            "metadata": {"argus": {"sandbox": sandbox}},
        }
        if max_processes is not None:
            spec["env"]["ARGUS_KERNEL_MAX_PROCESSES"] = str(max_processes)
        directory = os.path.join(self.data_dir, "kernels", name)
        os.makedirs(directory, exist_ok=True)
        _write(os.path.join(directory, "kernel.json"), json.dumps(spec, indent=2))
        return name


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


HOST: Optional[Host] = None
STARTED_KERNEL_IDS: List[str] = []
_saved_env: Dict[str, Optional[str]] = {}


def setUpModule() -> None:
    global HOST
    HOST = Host()
    planted = {
        "OPENAI_API_KEY": SECRET,
        "JUPYTER_DATA_DIR": HOST.data_dir,
        "JUPYTER_RUNTIME_DIR": HOST.runtime_dir,
    }
    for name, value in planted.items():
        _saved_env[name] = os.environ.get(name)
        os.environ[name] = value


def tearDownModule() -> None:
    for name, value in _saved_env.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    leftovers = _processes_mentioning(STARTED_KERNEL_IDS + [f"sleep {ORPHAN_MARKER}"], wait_seconds=5)
    if HOST is not None:
        shutil.rmtree(HOST.base, ignore_errors=True)
    if leftovers:
        raise AssertionError(f"kernel processes left behind: {leftovers}")


def _processes_mentioning(needles: List[str], wait_seconds: float) -> List[str]:
    """Command lines of live processes naming a kernel id (bwrap, its init, the kernel)."""
    deadline = time.monotonic() + wait_seconds
    while True:
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if any(needle in cmdline for needle in needles):
                found.append(f"{pid}: {cmdline[:160]}")
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


# ---------------------------------------------------------------- kernels


@dataclass
class Result:
    stdout: str = ""
    stderr: str = ""
    error: Optional[str] = None  # exception class name
    traceback: str = ""
    displays: List[dict] = field(default_factory=list)


class Kernel:
    """One kernel started through jupyter_client the way jupyter-server does it."""

    def __init__(self, kernel_name: str, workspace: str, stderr: Optional[IO[str]] = None) -> None:
        assert HOST is not None
        self.id = str(uuid.uuid4())
        STARTED_KERNEL_IDS.append(self.id)
        self.connection_file = os.path.join(HOST.runtime_dir, f"kernel-{self.id}.json")
        self.manager = KernelManager(kernel_name=kernel_name, transport="ipc", connection_file=self.connection_file)
        started = time.monotonic()
        # The kernel's stdout is only ipykernel's banner; stderr stays visible.
        self.manager.start_kernel(cwd=workspace, stdout=subprocess.DEVNULL, **({"stderr": stderr} if stderr else {}))
        self.client = self.manager.client()
        self.client.start_channels()
        try:
            self.client.wait_for_ready(timeout=30)
        except RuntimeError:
            self.shutdown()
            raise
        self.start_seconds = time.monotonic() - started

    @property
    def pid(self) -> int:
        """The launcher's process, which exec'd into bwrap (or the bare kernel)."""
        return self.manager.provisioner.process.pid

    def send(self, code: str) -> str:
        # As Argus's own client does: without this, ipykernel aborts a cell sent
        # shortly after an error (its stop_on_error window), and the cell
        # returns nothing — which happened under load after the interrupt test.
        return self.client.execute(code, store_history=False, stop_on_error=False)

    def wait_until_running(self, msg_id: str, timeout: float = 10) -> None:
        """Block until the kernel has started executing `msg_id` (its execute_input)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.client.get_iopub_msg(timeout=0.5)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "execute_input":
                return
        raise AssertionError(f"the cell did not start within {timeout} s")

    def collect(self, msg_id: str, timeout: float) -> Result:
        result = Result()
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"cell did not finish within {timeout} s; output so far: {result}")
            try:
                msg = self.client.get_iopub_msg(timeout=remaining)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                if content["name"] == "stdout":
                    result.stdout += content["text"]
                else:
                    result.stderr += content["text"]
            elif kind == "error":
                result.error = content["ename"]
                result.traceback = _ANSI.sub("", "\n".join(content["traceback"]))
            elif kind in ("display_data", "execute_result"):
                result.displays.append(content["data"])
            elif kind == "status" and content["execution_state"] == "idle":
                return result

    def run(self, code: str, timeout: float = 20) -> Result:
        return self.collect(self.send(code), timeout)

    def ok(self, code: str, timeout: float = 20) -> str:
        """Run a cell that must succeed; its stdout."""
        result = self.run(code, timeout)
        if result.error:
            raise AssertionError(f"cell failed with {result.error}:\n{result.traceback}")
        return result.stdout

    def shutdown(self) -> None:
        try:
            self.client.stop_channels()
        except Exception:
            pass
        if self.manager.has_kernel:
            self.manager.shutdown_kernel(now=True)


def _cell_raises(kernel: Kernel, code: str) -> str:
    """Run `code` inside try/except in the kernel; the exception class it raised, or 'no error'."""
    body = "\n".join("    " + line for line in code.splitlines())
    return kernel.ok(f"try:\n{body}\n    print('no error')\nexcept Exception as e:\n    print(type(e).__name__)").strip()


# ---------------------------------------------------------------- bubblewrap


@unittest.skipUnless(HAS_BWRAP, NO_BWRAP)
class SandboxedKernelTest(unittest.TestCase):
    """One bubblewrap kernel, shared: starting it is the slow part."""

    kernel: Kernel

    @classmethod
    def setUpClass(cls) -> None:
        assert HOST is not None
        cls.workspace = HOST.workspace("main")
        _write(os.path.join(cls.workspace, "input.txt"), "hello from the host")
        cls.kernel = Kernel(HOST.kernelspec("argus-python", sandbox="bubblewrap"), cls.workspace)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.kernel.shutdown()

    def test_runs_in_workspace_and_reads_host_files_by_name(self) -> None:
        out = self.kernel.ok("import os; print(os.getcwd()); print(open('input.txt').read())")
        self.assertEqual(out.splitlines(), ["/workspace", "hello from the host"])

    def test_environment_is_built_from_scratch(self) -> None:
        env = json.loads(self.kernel.ok("import os, json; print(json.dumps(dict(os.environ)))"))
        self.assertNotIn("OPENAI_API_KEY", env)
        self.assertNotIn(SECRET, json.dumps(env))
        self.assertFalse([k for k in env if k.startswith("JUPYTER_")], env)
        self.assertEqual(env["HOME"], "/workspace")
        self.assertEqual(env["PATH"], "/usr/local/bin:/usr/bin:/bin")
        self.assertEqual(env["PYTHONPATH"], "/opt/argus/python")
        self.assertEqual(env["USER"], "argus")
        self.assertEqual(env["OPENBLAS_NUM_THREADS"], "2")

    def test_init_process_shows_no_host_path_or_environment(self) -> None:
        # bubblewrap is PID 1 in the sandbox; its environment and command line
        # are readable there, so they must carry nothing of the host.
        assert HOST is not None
        out = self.kernel.ok(
            "import json\n"
            "print(json.dumps({n: open('/proc/1/' + n, 'rb').read().decode('latin1') for n in ('environ', 'cmdline')}))"
        )
        seen = json.loads(out)
        self.assertEqual(seen["environ"], "")
        for name, text in seen.items():
            self.assertNotIn(HOST.base, text, name)
            self.assertNotIn(PYTHON_DIR, text, name)
            self.assertNotIn("JUPYTER", text, name)

    def test_helper_package_is_imported_at_start(self) -> None:
        self.assertEqual(self.kernel.ok("print(ARGUS_TEST_HELPERS)").strip(), "loaded")

    def test_starts_without_the_debugger_yet_a_cell_may_import_it(self) -> None:
        # ipykernel's debugpy import was a quarter of every kernel start (launch_kernel.KERNEL_MAIN).
        out = self.kernel.ok(
            "import sys\n"
            "print('debugpy' in sys.modules, get_ipython().kernel.debugpy_stream is None)\n"
            "import debugpy\n"
            "print(debugpy.__name__)"
        )
        self.assertEqual(out.splitlines(), ["False True", "debugpy"])

    def test_host_files_are_out_of_reach(self) -> None:
        assert HOST is not None
        for path in (
            HOST.db,
            os.path.join(HOST.other_workspace, "secret.txt"),
            "../other-session/secret.txt",
            HOST.other_connection_file,
            self.kernel.connection_file,  # the host's copy, in the shared runtime dir
        ):
            with self.subTest(path=path):
                self.assertIn(_cell_raises(self.kernel, f"open({path!r}).read()"), ("FileNotFoundError", "PermissionError"))
        for directory in ("/work", "/root", HOST.runtime_dir, HOST.sessions, "/home", "/var"):
            with self.subTest(directory=directory):
                self.assertIn(_cell_raises(self.kernel, f"import os; os.listdir({directory!r})"),
                              ("FileNotFoundError", "PermissionError"))

    def test_sees_only_its_own_sockets_and_connection_file(self) -> None:
        names = json.loads(self.kernel.ok("import os, json; print(json.dumps(os.listdir('/run/jupyter')))"))
        self.assertEqual(len(names), 6, names)
        self.assertTrue(all(self.kernel.id in name for name in names), names)

    def test_holds_no_descriptor_of_a_host_directory(self) -> None:
        # An inherited directory descriptor would let openat(fd, "..") walk the host.
        out = self.kernel.ok(
            "import os, stat\n"
            "for fd in os.listdir('/proc/self/fd'):\n"
            "    try:\n        st = os.stat(int(fd))\n    except OSError:\n        continue\n"
            "    if stat.S_ISDIR(st.st_mode):\n        print(fd, os.readlink(f'/proc/self/fd/{fd}'))"
        )
        self.assertEqual(out.strip(), "")

    def test_etc_holds_only_what_libraries_need(self) -> None:
        out = self.kernel.ok("import os, socket; print(open('/etc/passwd').read()); print(socket.gethostname())")
        self.assertTrue(out.startswith("argus:x:"), out)
        self.assertNotIn("root:", out)
        self.assertIn("argus-kernel", out)
        self.assertEqual(_cell_raises(self.kernel, "open('/etc/shadow').read()"), "FileNotFoundError")

    def test_system_and_helper_package_are_read_only(self) -> None:
        for path in ("/usr/lib/argus-probe", "/usr/lib/python3.11/os.py", "/opt/argus/python/argus/__init__.py"):
            with self.subTest(path=path):
                out = self.kernel.ok(
                    "import errno\n"
                    f"try:\n    open({path!r}, 'a').close()\n    print('written')\n"
                    "except OSError as e:\n    print(errno.errorcode[e.errno])"
                )
                self.assertIn(out.strip(), ("EROFS", "EACCES", "EPERM"))

    def test_network_is_unreachable(self) -> None:
        out = self.kernel.ok(
            "import socket\n"
            "print(sorted(name for _, name in socket.if_nameindex()))\n"
            "try:\n    socket.create_connection(('1.1.1.1', 53), timeout=2)\n    print('connected')\n"
            "except OSError as e:\n    print(type(e).__name__)"
        )
        interfaces, outcome = out.splitlines()
        self.assertEqual(interfaces, "['lo']")
        self.assertNotEqual(outcome, "connected")

    def test_has_no_capabilities_and_the_configured_limits(self) -> None:
        out = self.kernel.ok(
            "import resource\n"
            "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')][0])\n"
            "for r in ('RLIMIT_AS', 'RLIMIT_CORE', 'RLIMIT_FSIZE'):\n"
            "    print(resource.getrlimit(getattr(resource, r))[0])"
        )
        caps, address_space, core, file_size = out.split()
        self.assertEqual(int(caps, 16), 0)
        self.assertEqual(int(address_space), TEST_MEMORY_MB * MIB)
        self.assertEqual(int(core), 0)
        self.assertEqual(int(file_size), 4096 * MIB)

    @unittest.skipUnless(AUTOGROUP_ON, NO_AUTOGROUP)
    def test_runs_below_the_server_in_its_own_scheduling_group(self) -> None:
        # jupyter_client starts the kernel in a session of its own, hence an
        # autogroup of its own: only the group's nice weighs against the server.
        # This process's line is empty in init's own group (CI runs tests from a
        # process tree that never called setsid): it has no name to compare.
        own_group = (_autogroup_of(os.getpid()).split() or ["(root group)"])[0]
        group, _, nice = _autogroup_of(self.kernel.pid).split()
        self.assertNotEqual(group, own_group)
        self.assertEqual(nice, "10")
        inside = self.kernel.ok("import os\nprint(os.nice(0)); print(open('/proc/self/autogroup').read().split()[-1])")
        self.assertEqual(inside.split(), ["10", "10"])

    def test_vision_stack_imports_and_renders_a_figure(self) -> None:
        result = self.kernel.run(
            "import io, numpy, cv2, PIL, skimage, matplotlib\n"
            "import matplotlib.pyplot as plt\n"
            "fig = plt.figure(figsize=(2, 2)); plt.plot([0, 1], [1, 0])\n"
            "buffer = io.BytesIO(); fig.savefig(buffer, format='png')\n"
            "print(buffer.getvalue()[:8] == b'\\x89PNG\\r\\n\\x1a\\n')\n"
            "plt.show()",
            timeout=60,
        )
        self.assertIsNone(result.error, result.traceback)
        self.assertEqual(result.stdout.strip(), "True")
        self.assertTrue(any("image/png" in d for d in result.displays), result.displays)

    def test_memory_limit_raises_memory_error_and_kernel_survives(self) -> None:
        result = self.kernel.run(f"block = bytearray({TEST_MEMORY_MB + 1024} * 1024 * 1024)")
        self.assertEqual(result.error, "MemoryError", result.traceback)
        self.assertEqual(self.kernel.ok("print('still here')").strip(), "still here")

    def test_one_file_cannot_outgrow_the_file_size_limit(self) -> None:
        # Sparse: seeking past the limit and writing one byte costs no disk.
        out = self.kernel.ok(
            "import errno\n"
            "with open('huge.bin', 'wb', buffering=0) as f:\n"
            "    f.seek(4096 * 1024 * 1024)\n"
            "    try:\n        f.write(b'x'); print('written')\n"
            "    except OSError as e:\n        print(errno.errorcode[e.errno])\n"
            "import os; os.remove('huge.bin')"
        )
        self.assertEqual(out.strip(), "EFBIG")

    def test_tmp_is_private_and_bounded(self) -> None:
        if "--size" not in bwrap.supported_options(shutil.which("bwrap") or "bwrap"):
            self.skipTest("this bwrap cannot size its tmpfs")
        out = self.kernel.ok("import os; s = os.statvfs('/tmp'); print(s.f_blocks * s.f_frsize); print(os.listdir('/tmp'))")
        size, listing = out.splitlines()
        self.assertEqual(int(size), TEST_MEMORY_MB * MIB)
        self.assertNotIn("argus-sandbox-test", listing)  # the host's /tmp is not there

    def test_root_and_dev_hold_no_data_and_shm_is_bounded(self) -> None:
        # Unsized tmpfs is RAM a cell could fill (2 GB under /dev in the issue).
        out = self.kernel.ok(
            "import errno, os\n"
            "for p in ('/filler', '/dev/filler', '/usr/filler'):\n"
            "    try:\n        open(p, 'wb').write(b'x'); print('written')\n"
            "    except OSError as e:\n        print(errno.errorcode[e.errno])\n"
            "open('/dev/null', 'wb').write(b'x')\n"
            "import multiprocessing; multiprocessing.Lock()\n"
            "s = os.statvfs('/dev/shm'); print(s.f_blocks * s.f_frsize)"
        )
        *writes, shm = out.split()
        self.assertEqual(writes, ["EROFS", "EROFS", "EROFS"])
        if "--size" in bwrap.supported_options(shutil.which("bwrap") or "bwrap"):
            self.assertEqual(int(shm), bwrap.SHM_SIZE_BYTES)

    def test_interrupt_stops_a_busy_loop_and_kernel_stays_usable(self) -> None:
        msg_id = self.kernel.send("while True:\n    pass")
        self.kernel.wait_until_running(msg_id)
        time.sleep(0.3)  # into the loop proper
        self.kernel.manager.interrupt_kernel()
        result = self.kernel.collect(msg_id, timeout=10)
        self.assertEqual(result.error, "KeyboardInterrupt", result)
        self.assertTrue(self.kernel.manager.is_alive())
        self.assertEqual(self.kernel.ok("print(6 * 7)").strip(), "42")

    def test_private_runtime_dir_is_private_and_linked(self) -> None:
        assert HOST is not None
        private = os.path.join(HOST.runtime_dir, f"sandbox-{self.kernel.id}")
        self.assertEqual(stat.S_IMODE(os.stat(private).st_mode), 0o700)
        with open(self.kernel.connection_file, encoding="utf-8") as f:
            info = json.load(f)
        link = f"{info['ip']}-{info['shell_port']}"
        self.assertTrue(os.path.islink(link))
        self.assertTrue(os.path.realpath(link).startswith(private + os.sep))


@unittest.skipUnless(HAS_BWRAP, NO_BWRAP)
class CpuLimitTest(unittest.TestCase):
    def test_cpu_limit_kills_a_busy_kernel_even_with_broken_helpers(self) -> None:
        assert HOST is not None
        name = HOST.kernelspec("argus-python-cpu", sandbox="bubblewrap", cpu_seconds=TEST_CPU_SECONDS,
                               package_dir=HOST.broken_package_dir)
        kernel = Kernel(name, HOST.workspace("cpu"))
        try:
            # A helper package that raises on import must not stop the kernel.
            self.assertEqual(kernel.ok("print('ARGUS_TEST_HELPERS' in dir())").strip(), "False")
            kernel.send("while True:\n    pass")
            # Judged by the CPU the kernel has used, not by the wall clock: on a loaded 2-core
            # machine the busy loop gets a sliver of a core, and its CPU-seconds take minutes of
            # wall time (a wall deadline of limit + 15 s failed at load 27). The hang guard only
            # ends a test whose kernel neither dies nor uses CPU.
            hang_guard = time.monotonic() + 600
            while kernel.manager.is_alive():
                used = _tree_cpu_seconds(kernel.pid)
                # Past the hard limit (soft + CPU_GRACE_SECONDS) and a second for sampling and bwrap.
                self.assertLess(used, TEST_CPU_SECONDS + CPU_GRACE_SECONDS + 1, f"the kernel outlived its CPU limit ({used:.1f} CPU-s)")
                self.assertLess(time.monotonic(), hang_guard, f"the kernel neither died nor used its CPU ({used:.1f} CPU-s)")
                time.sleep(0.2)
        finally:
            kernel.shutdown()


    def test_a_kernel_that_crashes_in_native_code_says_where_on_its_stderr(self) -> None:
        # jupyter-server puts a kernel's stderr in the server's log: without the fault handler a
        # segfault in a library left only "the kernel died" (seen under load in bench:scale-out).
        assert HOST is not None
        with tempfile.TemporaryFile("w+") as stderr:
            kernel = Kernel(HOST.kernelspec("argus-python", sandbox="bubblewrap"), HOST.workspace("crash"), stderr=stderr)
            try:
                kernel.send("import ctypes\ndef read_address_zero():\n    return ctypes.string_at(0)\nread_address_zero()")
                hang_guard = time.monotonic() + 120
                while kernel.manager.is_alive():
                    self.assertLess(time.monotonic(), hang_guard, "the kernel did not crash")
                    time.sleep(0.1)
            finally:
                kernel.shutdown()
            stderr.seek(0)
            said = stderr.read()
        self.assertIn("Fatal Python error: Segmentation fault", said)
        self.assertIn("read_address_zero", said)


def _tree_cpu_seconds(root: int) -> float:
    """User + system CPU-seconds of a process and all its descendants (and their reaped children), from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: Dict[int, int] = {}
    used: Dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        # After the command name: state is field 3, ppid 4, utime 14, stime 15, cutime 16, cstime 17.
        parents[int(entry)] = int(fields[1])
        used[int(entry)] = sum(int(x) for x in fields[11:15]) / ticks
    total = 0.0
    for pid, seconds in used.items():
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        if ancestor == root:
            total += seconds
    return total


def _cgroups_writable() -> bool:
    """Whether this machine lets the launcher make cgroups (root with v1 or delegated v2)."""
    if os.geteuid() != 0:
        return False
    v1 = all(os.access(f"/sys/fs/cgroup/{c}/cgroup.procs", os.W_OK) for c in ("pids", "memory"))
    v2 = os.access("/sys/fs/cgroup/cgroup.subtree_control", os.W_OK)
    return v1 or v2


# Forks until the kernel's process limit says no (BlockingIOError, EAGAIN),
# holding every child until the count is known, then lets them all go.
FORK_BOMB = """
import os
release_r, release_w = os.pipe()
children = []
refused = False
for _ in range(300):
    try:
        pid = os.fork()
    except BlockingIOError:
        refused = True
        break
    if pid == 0:
        os.close(release_w)
        os.read(release_r, 1)
        os._exit(0)
    children.append(pid)
os.close(release_w)
for pid in children:
    os.waitpid(pid, 0)
os.close(release_r)
print(len(children), refused)
"""

# Three children each touch CHUNK_MB of memory, under the per-process
# address-space limit but together past the kernel's memory limit. Each says
# when it holds its chunk, then waits to be released; the cell counts how many
# got there before the rest were killed.
MEMORY_HOGS = """
import os, time
CHUNK = {chunk_mb} << 20
ready_r, ready_w = os.pipe()
release_r, release_w = os.pipe()
children = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        os.close(ready_r); os.close(release_w)
        block = b"x" * CHUNK
        os.write(ready_w, b"1")
        os.read(release_r, 1)
        os._exit(0)
    children.append(pid)
os.close(ready_w); os.close(release_r)
os.set_blocking(ready_r, False)
ready, statuses = 0, {{}}
while ready + len(statuses) < 3:
    try:
        ready += len(os.read(ready_r, 3))
    except BlockingIOError:
        pass
    for pid in children:
        if pid not in statuses:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                statuses[pid] = status
    time.sleep(0.05)
os.close(release_w)
for pid in children:
    if pid not in statuses:
        statuses[pid] = os.waitpid(pid, 0)[1]
killed = sum(1 for s in statuses.values() if os.WIFSIGNALED(s) and os.WTERMSIG(s) == 9)
print(ready, killed)
"""


@unittest.skipUnless(HAS_BWRAP, NO_BWRAP)
@unittest.skipUnless(_cgroups_writable(), "this machine lets no process make cgroups (needs root, or a delegated cgroup v2)")
class KernelCgroupTest(unittest.TestCase):
    """Limits that hold for the whole kernel, not per process: its own cgroup."""

    MAX_PROCESSES = 48
    MEMORY_MB = 1024
    CHUNK_MB = 600

    @classmethod
    def setUpClass(cls) -> None:
        assert HOST is not None
        name = HOST.kernelspec("argus-python-cgroup", sandbox="bubblewrap", memory_mb=cls.MEMORY_MB,
                               max_processes=cls.MAX_PROCESSES)
        cls.kernel = Kernel(name, HOST.workspace("cgroup"))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.kernel.shutdown()

    def test_kernel_reports_a_cgroup(self) -> None:
        out = self.kernel.ok("import os; print(os.environ['ARGUS_KERNEL_LIMITS'])")
        self.assertIn(out.strip(), ("cgroup-v1", "cgroup-v2"))

    def test_the_probe_leaves_no_group_behind(self) -> None:
        # Its group is young when the probe ends, so the age-guarded sweep alone would keep it. Named
        # apart from the probes of servers running beside this test, whose groups come and go.
        kind, why = cgroups.probe(prefix="probe-test")
        self.assertIn(kind, ("cgroup-v1", "cgroup-v2"), why)
        own = cgroups._own_cgroups("/proc/self/cgroup")
        parents = [os.path.join(cgroups.CGROUP_ROOT, c, own[c].lstrip("/"), cgroups.PARENT) for c in ("pids", "memory") if c in own]
        parents += [os.path.join(cgroups.CGROUP_ROOT, own[""].lstrip("/"), cgroups.PARENT)] if "" in own else []
        left = [name for parent in parents if os.path.isdir(parent) for name in os.listdir(parent) if name.startswith("probe-test-")]
        self.assertEqual(left, [])

    def test_fork_bomb_stops_at_the_process_limit(self) -> None:
        forked, refused = self.kernel.ok(FORK_BOMB, timeout=60).split()
        self.assertEqual(refused, "True")
        self.assertLess(int(forked), self.MAX_PROCESSES)
        self.assertEqual(self.kernel.ok("print(6 * 7)").strip(), "42")

    def test_children_together_cannot_pass_the_memory_limit(self) -> None:
        ready, killed = self.kernel.ok(MEMORY_HOGS.format(chunk_mb=self.CHUNK_MB), timeout=60).split()
        # 3 x 600 MB cannot all be held under 1 GB: the group's OOM killer
        # takes a child (the largest), never a process outside the kernel.
        self.assertLess(int(ready), 3)
        self.assertGreaterEqual(int(killed), 1)
        self.assertEqual(self.kernel.ok("print('still here')").strip(), "still here")


@unittest.skipUnless(HAS_BWRAP, NO_BWRAP)
class WorkspaceRenameTest(unittest.TestCase):
    """Pooled kernels start in sessions/_pool/<slot>; Argus renames that to sessions/<id> later."""

    def test_workspace_follows_a_rename_on_the_host(self) -> None:
        assert HOST is not None
        pooled = HOST.workspace("_pool", "slot-0")
        kernel = Kernel(HOST.kernelspec("argus-python", sandbox="bubblewrap"), pooled)
        try:
            adopted = os.path.join(HOST.sessions, "session-42")
            os.rename(pooled, adopted)
            _write(os.path.join(adopted, "from-host.txt"), "written after the rename")
            out = kernel.ok(
                "print(open('from-host.txt').read())\n"
                "open('/workspace/from-kernel.txt', 'w').write('written inside')\n"
                # A detached child must still die with the sandbox (checked in tearDownModule).
                f"import subprocess; subprocess.Popen(['sleep', '{ORPHAN_MARKER}'], start_new_session=True)"
            )
            self.assertEqual(out.strip(), "written after the rename")
            with open(os.path.join(adopted, "from-kernel.txt"), encoding="utf-8") as f:
                self.assertEqual(f.read(), "written inside")
            self.assertFalse(os.path.exists(pooled))
        finally:
            kernel.shutdown()


# ---------------------------------------------------------------- no sandbox


class UnsandboxedKernelTest(unittest.TestCase):
    def test_runs_in_workspace_with_a_clean_environment(self) -> None:
        assert HOST is not None
        workspace = HOST.workspace("plain")
        _write(os.path.join(workspace, "input.txt"), "plain kernel input")
        kernel = Kernel(HOST.kernelspec("argus-python-none", sandbox="none"), workspace)
        try:
            out = kernel.ok(
                "import os, json\n"
                "print(os.getcwd()); print(open('input.txt').read())\n"
                "print(json.dumps(dict(os.environ)))\n"
                "print(ARGUS_TEST_HELPERS)"
            )
            cwd, content, env_json, helpers = out.splitlines()
            self.assertEqual(os.path.realpath(cwd), workspace)
            self.assertEqual(content, "plain kernel input")
            env = json.loads(env_json)
            self.assertNotIn("OPENAI_API_KEY", env)
            self.assertNotIn(SECRET, env_json)
            self.assertEqual(env["PYTHONPATH"], HOST.package_dir)
            self.assertEqual(env["ARGUS_SANDBOX"], "none")
            self.assertEqual(helpers, "loaded")
            if AUTOGROUP_ON:
                self.assertTrue(_autogroup_of(kernel.pid).endswith(" nice 10"), _autogroup_of(kernel.pid))
        finally:
            kernel.shutdown()


# ---------------------------------------------------------------- launcher parts


class LauncherPartsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="argus-sandbox-unit-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def _connection_file(self, kernel_id: str, transport: str = "ipc") -> str:
        path = os.path.join(self.dir, f"kernel-{kernel_id}.json")
        info = {"transport": transport, "ip": os.path.join(self.dir, f"kernel-{kernel_id}-ipc"), "key": "k",
                "shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5}
        _write(path, json.dumps(info))
        return path

    def test_settings_default_to_the_sandbox_and_name_bad_values(self) -> None:
        settings = read_settings({})
        self.assertEqual((settings.sandbox, settings.memory_mb, settings.cpu_seconds), ("bubblewrap", 4096, 3600))
        with self.assertRaisesRegex(SettingsError, "ARGUS_KERNEL_MEMORY_MB must be a whole number"):
            read_settings({"ARGUS_KERNEL_MEMORY_MB": "lots"})
        with self.assertRaisesRegex(SettingsError, "ARGUS_SANDBOX must be one of"):
            read_settings({"ARGUS_SANDBOX": "docker"})
        self.assertEqual(settings.max_processes, 128)
        self.assertEqual(read_settings({"ARGUS_KERNEL_MAX_PROCESSES": "64"}).max_processes, 64)
        with self.assertRaisesRegex(SettingsError, "ARGUS_KERNEL_MAX_PROCESSES must be greater than 0"):
            read_settings({"ARGUS_KERNEL_MAX_PROCESSES": "0"})

    def test_preload_defaults_to_none_and_adds_its_code_only_for_vision(self) -> None:
        self.assertEqual(read_settings({}).preload, "none")
        self.assertEqual(read_settings({"ARGUS_KERNEL_PRELOAD": "vision"}).preload, "vision")
        with self.assertRaisesRegex(SettingsError, "ARGUS_KERNEL_PRELOAD must be one of"):
            read_settings({"ARGUS_KERNEL_PRELOAD": "everything"})
        self.assertEqual(launch_kernel.startup_code("none"), launch_kernel.STARTUP_CODE)
        self.assertIn("argus.preload", launch_kernel.startup_code("vision"))
        compile(launch_kernel.startup_code("vision"), "<startup>", "exec")

    def test_kernels_run_below_the_server_priority_by_default(self) -> None:
        self.assertEqual(read_settings({}).niceness, 10)
        self.assertEqual(read_settings({"ARGUS_KERNEL_NICE": "0"}).niceness, 0)
        for bad in ("-5", "20", "low"):
            with self.assertRaisesRegex(SettingsError, "ARGUS_KERNEL_NICE must be a whole number from 0 to 19"):
                read_settings({"ARGUS_KERNEL_NICE": bad})

    def _autogroup_file(self, line: str) -> str:
        path = os.path.join(self.dir, "autogroup")
        _write(path, line)
        return path

    def _switch(self, value: str) -> str:
        path = os.path.join(self.dir, "sched_autogroup_enabled")
        _write(path, value + "\n")
        return path

    def test_lowers_the_scheduling_group_and_never_raises_it(self) -> None:
        group = self._autogroup_file("/autogroup-42 nice 0\n")
        self.assertEqual(priority.lower_autogroup(10, group, self._switch("1")), [])
        with open(group, encoding="ascii") as f:
            self.assertEqual(f.read(), "10")
        lower_already = self._autogroup_file("/autogroup-42 nice 15\n")
        self.assertEqual(priority.lower_autogroup(10, lower_already, self._switch("1")), [])
        with open(lower_already, encoding="ascii") as f:
            self.assertEqual(f.read(), "/autogroup-42 nice 15\n")

    def test_a_process_in_the_root_group_has_nothing_to_lower_and_no_warning(self) -> None:
        # /proc/self/autogroup reads empty in init's group (a process tree that
        # never called setsid); writing it would fail with EINVAL.
        root = self._autogroup_file("")
        self.assertEqual(priority.lower_autogroup(10, root, self._switch("1")), [])
        with open(root, encoding="ascii") as f:
            self.assertEqual(f.read(), "")

    def test_a_group_it_cannot_lower_is_a_warning_only_while_autogroup_is_on(self) -> None:
        missing = os.path.join(self.dir, "no-such-dir", "autogroup")
        warnings = priority.lower_autogroup(10, missing, self._switch("1"))
        self.assertEqual(len(warnings), 1)
        self.assertIn("could not lower the kernel's scheduling group", warnings[0])
        self.assertEqual(priority.lower_autogroup(10, missing, self._switch("0")), [])
        self.assertEqual(priority.lower_autogroup(10, missing, os.path.join(self.dir, "no-switch")), [])

    def _cgroup_tree(self, files: Dict[str, str], proc_cgroup: str) -> str:
        """A directory tree standing in for /sys/fs/cgroup, and a /proc/self/cgroup for it."""
        root = os.path.join(self.dir, "cgroup")
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            _write(os.path.join(root, name), text)
        _write(os.path.join(self.dir, "proc-cgroup"), proc_cgroup)
        return root

    def test_cgroup_v1_group_per_kernel_nested_under_our_own(self) -> None:
        root = self._cgroup_tree(
            {"pids/cgroup.procs": "", "memory/cgroup.procs": "", "memory/svc/cgroup.procs": "",
             "pids/argus-kernels/kernel-gone/.keep": ""},
            "8:pids:/\n4:memory:/svc\n0::/\n",
        )
        gone = os.path.join(root, "pids/argus-kernels/kernel-gone")
        os.remove(os.path.join(gone, ".keep"))  # an empty group made two minutes ago: swept
        os.utime(gone, (time.time() - 120, time.time() - 120))
        os.makedirs(os.path.join(root, "pids/argus-kernels/kernel-live/x"))  # rmdir fails: kept
        # Empty but made a moment ago: a sibling launcher may not have joined it yet, so it stays.
        os.makedirs(os.path.join(root, "pids/argus-kernels/kernel-joining"))
        kind, why = cgroups.confine("/rt/kernel-abc.json", 1 << 30, 48, root, os.path.join(self.dir, "proc-cgroup"))
        self.assertEqual((kind, why), ("cgroup-v1", ""))
        pids = os.path.join(root, "pids/argus-kernels/kernel-abc")
        memory = os.path.join(root, "memory/svc/argus-kernels/kernel-abc")
        with open(os.path.join(pids, "pids.max")) as f:
            self.assertEqual(f.read(), "48")
        with open(os.path.join(memory, "memory.limit_in_bytes")) as f:
            self.assertEqual(f.read(), str(1 << 30))
        for group in (pids, memory):
            with open(os.path.join(group, "cgroup.procs")) as f:
                self.assertEqual(f.read(), str(os.getpid()))
        self.assertEqual(sorted(os.listdir(os.path.join(root, "pids/argus-kernels"))), ["kernel-abc", "kernel-joining", "kernel-live"])
        # A minute on, the launcher that made it is gone and it is empty: the next sweep takes it.
        cgroups.sweep_empty(os.path.join(root, "pids/argus-kernels"), now=time.time() + cgroups.YOUNG_SECONDS + 1)
        self.assertEqual(sorted(os.listdir(os.path.join(root, "pids/argus-kernels"))), ["kernel-abc", "kernel-live"])

    def test_cgroup_v2_when_its_controllers_are_delegated(self) -> None:
        root = self._cgroup_tree(
            {"cgroup.controllers": "cpu memory pids", "svc/cgroup.controllers": "memory pids",
             "svc/cgroup.subtree_control": "memory pids", "svc/argus-kernels/cgroup.subtree_control": "memory pids",
             "svc/argus-kernels/kernel-abc/memory.swap.max": "max"},
            "0::/svc\n",
        )
        kind, _ = cgroups.confine("/rt/kernel-abc.json", 1 << 30, 48, root, os.path.join(self.dir, "proc-cgroup"))
        self.assertEqual(kind, "cgroup-v2")
        group = os.path.join(root, "svc/argus-kernels/kernel-abc")
        expected = {"memory.max": str(1 << 30), "memory.swap.max": "0", "pids.max": "48", "cgroup.procs": str(os.getpid())}
        for name, value in expected.items():
            with open(os.path.join(group, name)) as f:
                self.assertEqual(f.read(), value, name)

    def test_no_cgroup_means_rlimits_and_says_why(self) -> None:
        root = self._cgroup_tree({"cgroup.controllers": "memory pids", "cgroup.subtree_control": ""}, "0::/svc/../..\n")
        kind, why = cgroups.confine("/rt/kernel-abc.json", 1 << 30, 48, root, os.path.join(self.dir, "proc-cgroup"))
        self.assertEqual(kind, "rlimit")
        self.assertTrue(why)
        self.assertEqual(cgroups.group_name("/rt/kernel-../x y.json"), "x_y")

    def test_prepare_links_every_socket_into_the_private_dir(self) -> None:
        connection_file = self._connection_file("abc")
        private = private_runtime.prepare(connection_file, os.getuid(), os.getgid())
        self.assertEqual(private.connection_file_inside, "/run/jupyter/kernel-abc.json")
        with open(os.path.join(private.runtime, "kernel-abc.json"), encoding="utf-8") as f:
            inside = json.load(f)
        self.assertEqual(inside["ip"], "/run/jupyter/kernel-abc-ipc")
        for port in range(1, 6):
            link = os.path.join(self.dir, f"kernel-abc-ipc-{port}")
            self.assertEqual(os.path.realpath(link), os.path.join(private.runtime, f"kernel-abc-ipc-{port}"))

    def test_sweep_removes_only_old_dirs_of_kernels_that_are_gone(self) -> None:
        private_runtime.prepare(self._connection_file("live"), 0, 0)
        private_runtime.prepare(self._connection_file("gone"), 0, 0)
        private_runtime.prepare(self._connection_file("young"), 0, 0)
        os.remove(os.path.join(self.dir, "kernel-gone.json"))
        os.remove(os.path.join(self.dir, "kernel-young.json"))
        now = time.time()
        for name in ("sandbox-live", "sandbox-gone"):
            os.utime(os.path.join(self.dir, name), (now - 3600, now - 3600))
        private_runtime.sweep_orphans(self.dir, now)
        remaining = sorted(n for n in os.listdir(self.dir) if n.startswith("sandbox-"))
        self.assertEqual(remaining, ["sandbox-live", "sandbox-young"])

    def test_bwrap_command_keeps_the_process_group_and_hides_the_runtime_dir(self) -> None:
        private = private_runtime.prepare(self._connection_file("cmd"), 0, 0)
        argv = bwrap.bwrap_command(
            bwrap="/usr/bin/bwrap", options=frozenset({"--bind-fd", "--size"}), workspace_fd=7,
            workspace_path="/srv/ws", package_dir="/srv/python", private=private, env={"A": "1"},
            tmp_size_bytes=MIB, kernel_argv=["python3", "-m", "ipykernel_launcher"],
        )
        self.assertNotIn("--new-session", argv)
        self.assertNotIn("--share-net", argv)
        for option in ("--unshare-all", "--die-with-parent", "--clearenv"):
            self.assertIn(option, argv)
        self.assertNotIn(self.dir, argv)  # the shared runtime dir itself is never bound
        self.assertIn(private.runtime, argv)
        self.assertEqual(argv[argv.index("--bind-fd") + 1:argv.index("--bind-fd") + 3], ["7", "/workspace"])

    def test_tcp_connection_files_keep_the_network(self) -> None:
        private = private_runtime.prepare(self._connection_file("tcp", transport="tcp"), 0, 0)
        argv = bwrap.bwrap_command(
            bwrap="/usr/bin/bwrap", options=frozenset(), workspace_fd=None, workspace_path="/srv/ws",
            package_dir=None, private=private, env={}, tmp_size_bytes=MIB, kernel_argv=["python3"],
        )
        self.assertIn("--share-net", argv)
        self.assertIn("/srv/ws", argv)  # no descriptor (bwrap < 0.8): bind by path


if __name__ == "__main__":
    unittest.main()
