"""A jupyter-server extension Argus loads into the jupyter-server it manages.

Why it exists: jupyter-server sends kernel messages to the websocket without
TCP_NODELAY. After the first small frame of a cell (`status: busy`), Nagle's
algorithm holds the next frames until the client acknowledges the first, and
the client's delayed ACK waits about 40 ms for something to piggy-back on. So
every cell took ~45 ms however trivial. Tornado documents `set_nodelay(True)`
as the fix for exactly this; jupyter-server never calls it, so we do, once per
kernel websocket. Measured effect: see `bench/kernel-roundtrip.ts`.
"""

from jupyter_server.services.kernels.handlers import ZMQChannelsHandler

_PATCHED = "_argus_nodelay"


def _load_jupyter_server_extension(serverapp):
    if getattr(ZMQChannelsHandler, _PATCHED, False):
        return
    original_open = ZMQChannelsHandler.open

    def open_without_nagle(self, *args, **kwargs):
        self.set_nodelay(True)
        return original_open(self, *args, **kwargs)

    ZMQChannelsHandler.open = open_without_nagle
    setattr(ZMQChannelsHandler, _PATCHED, True)
    serverapp.log.info("argus: kernel websockets send without Nagle delay (TCP_NODELAY)")


# jupyter-server 1.x looks for this name too.
load_jupyter_server_extension = _load_jupyter_server_extension


def _jupyter_server_extension_points():
    return [{"module": "argus_jupyter"}]
