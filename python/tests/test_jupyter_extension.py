"""The argus_jupyter extension in a real jupyter-server: it stops the server once the process
named as its Argus parent (ARGUS_JUPYTER_PARENT_PID) is no longer its parent.

A fresh-clone run found a jupyter-server still idle minutes after its Argus was killed with
SIGKILL: the parent-death SIGTERM alone had not stopped it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]

try:
    import jupyter_server  # noqa: F401
except ImportError:  # pragma: no cover - present wherever Argus runs kernels
    jupyter_server = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@unittest.skipIf(jupyter_server is None, "jupyter_server not installed")
class StopsWhenArgusIsGoneTest(unittest.TestCase):
    def _server(self, parent_pid: str) -> subprocess.Popen:
        root = tempfile.mkdtemp(prefix="argus-jx-")
        self.addCleanup(shutil.rmtree, root, True)
        env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), ARGUS_JUPYTER_PARENT_PID=parent_pid, JUPYTER_RUNTIME_DIR=root, JUPYTER_DATA_DIR=root)
        args = [
            sys.executable, "-m", "jupyter_server", "--no-browser", f"--ServerApp.port={_free_port()}",
            "--ServerApp.port_retries=0", f"--ServerApp.root_dir={root}", "--ServerApp.token=t0ken-for-the-test-only",
            '--ServerApp.jpserver_extensions={"argus_jupyter": True}', "--allow-root",
        ]
        return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def test_a_server_whose_argus_is_gone_stops_by_itself(self) -> None:
        # pid 1 is never this server's parent here: as if Argus had died and the server been adopted.
        server = self._server("1")
        try:
            # It ends by itself; the bound only keeps a broken extension from hanging the suite.
            server.wait(timeout=120)
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
        self.assertIn("is gone; stopping", server.stderr.read())
        # A server whose Argus is alive keeps running: every Argus test with a jupyter-server shows it.
