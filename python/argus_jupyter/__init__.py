"""A jupyter-server extension Argus loads into the jupyter-server it manages.

Why it exists: jupyter-server sends kernel messages to the websocket without
TCP_NODELAY. After the first small frame of a cell (`status: busy`), Nagle's
algorithm holds the next frames until the client acknowledges the first, and
the client's delayed ACK waits about 40 ms for something to piggy-back on. So
every cell took ~45 ms however trivial. Tornado documents `set_nodelay(True)`
as the fix for exactly this; jupyter-server never calls it, so we do, once per
kernel websocket. Measured effect: see `bench/kernel-roundtrip.ts`.

It also stops the server once the Argus server that started it is gone
(`_stop_when_argus_is_gone`).
"""

import os

from jupyter_server.services.kernels.handlers import ZMQChannelsHandler
from tornado.ioloop import PeriodicCallback

_PATCHED = "_argus_nodelay"


def _load_jupyter_server_extension(serverapp):
    _stop_when_argus_is_gone(serverapp)
    if getattr(ZMQChannelsHandler, _PATCHED, False):
        return
    original_open = ZMQChannelsHandler.open

    def open_without_nagle(self, *args, **kwargs):
        self.set_nodelay(True)
        return original_open(self, *args, **kwargs)

    ZMQChannelsHandler.open = open_without_nagle
    setattr(ZMQChannelsHandler, _PATCHED, True)
    serverapp.log.info("argus: kernel websockets send without Nagle delay (TCP_NODELAY)")


def _stop_when_argus_is_gone(serverapp):
    """Stops this server, and its kernels with it, once the process that started it has died.

    `launch_bound_to_parent.py` asks Linux for a SIGTERM when Argus dies (PR_SET_PDEATHSIG) and
    names Argus's pid in ARGUS_JUPYTER_PARENT_PID. The SIGTERM alone was not enough: a fresh-clone
    run found a jupyter-server idle minutes after its Argus was killed with SIGKILL, which a
    SIGTERM sent by hand then stopped at once (jupyter-server drops a SIGTERM that arrives before
    its event loop is set up, for one). Once a second, this server checks that it still has that
    parent; an orphan is adopted by another process, and its parent id changes.
    """
    expected = os.environ.get("ARGUS_JUPYTER_PARENT_PID", "")
    if not expected.isdigit():
        return  # not started by Argus's launcher (a Jupyter host an operator runs)

    def check():
        if os.getppid() != int(expected):
            serverapp.log.critical("argus: the Argus server that started this jupyter-server (pid %s) is gone; stopping", expected)
            watcher.stop()
            serverapp.stop()

    watcher = PeriodicCallback(check, 1000)
    watcher.start()


# jupyter-server 1.x looks for this name too.
load_jupyter_server_extension = _load_jupyter_server_extension


def _jupyter_server_extension_points():
    return [{"module": "argus_jupyter"}]
