"""A cell's printed output is cut to its head and tail in the kernel, not after the trip.

The Argus server keeps at most the first and the last million characters of
each stream of a cell (lib/engines/kernels/capped-text.ts) and drops the middle. A cell
printing 10 MB still sent all 10 MB through jupyter-server, whose single event
loop then relayed every other session's messages behind it. So the kernel cuts
the same way before sending: the head goes out live, the tail is held (at most
TAIL characters) and sent when the cell ends, after a note of what was left
out, worded as the server words it. What the person and the planner see is the
same; what crosses jupyter-server is at most HEAD + TAIL per stream per cell.
"""

from __future__ import annotations

import collections
import sys
import threading
from typing import Any, Callable, Deque, List

HEAD = 1_000_000
# A little under the server's tail, so the note and the tail fit in it whole.
TAIL = 1_000_000 - 200


class StreamCap:
    """Wraps one stream's `write`: the first `head` characters of a cell pass, the last `tail` wait for `finish`."""

    def __init__(self, write: Callable[[str], Any], head: int = HEAD, tail: int = TAIL) -> None:
        self.original = write
        self.head = head
        self.tail_max = tail
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.passed = 0
        self.tail: Deque[str] = collections.deque()
        self.tail_len = 0
        self.dropped = 0

    def write(self, text: Any) -> Any:
        if not isinstance(text, str):
            return self.original(text)  # the stream's own TypeError
        with self.lock:
            room = self.head - self.passed
            now, rest = (text[:room], text[room:]) if room > 0 else ("", text)
            self.passed += len(now)
            if rest:
                self.tail.append(rest)
                self.tail_len += len(rest)
                # Drop whole chunks from the front while what remains still fills the tail.
                while self.tail and self.tail_len - len(self.tail[0]) >= self.tail_max:
                    chunk = self.tail.popleft()
                    self.tail_len -= len(chunk)
                    self.dropped += len(chunk)
        if now:
            self.original(now)
        return len(text)

    def finish(self) -> None:
        """Sends the held tail (and the note of what was dropped); the next cell starts afresh."""
        with self.lock:
            rest = "".join(self.tail)
            over = max(0, len(rest) - self.tail_max)
            dropped = self.dropped + over
            rest = rest[over:]
            self.reset()
        if dropped:
            self.original(f"\n[... {dropped} characters of output omitted ...]\n")
        if rest:
            self.original(rest)


def install(shell: Any) -> List[StreamCap]:
    """Caps sys.stdout and sys.stderr of the kernel per cell (their `write`, which print and the fd watcher use)."""
    if shell is None:
        return []
    caps = []
    for stream in (sys.stdout, sys.stderr):
        cap = StreamCap(stream.write)
        stream.write = cap.write
        caps.append(cap)
    shell.events.register("pre_run_cell", lambda *_: [cap.finish() for cap in caps])
    shell.events.register("post_run_cell", lambda *_: [cap.finish() for cap in caps])
    return caps
