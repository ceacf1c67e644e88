"""The neural vision tools over HTTP, for code that runs outside Argus (standard library only).

Internal module, used by argus.tools.neural when ARGUS_URL is set. An exported
function that calls detect_objects on a laptop sends the image to
`$ARGUS_URL/api/tools/<name>` with `Authorization: Bearer $ARGUS_TOKEN`, the
way vision-agent's code reaches LandingAI's hosted tools with an API key; the
answer is the same JSON the bridge gives a notebook.

Only urllib and a hand-built multipart body: nothing to install beyond what
the argus package already needs.

Public here: post_tool, Answer, multipart_body.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, NamedTuple, Optional, Tuple

# A neural call on a busy CPU server can queue and then take seconds.
HTTP_TIMEOUT_SECONDS = 180.0


class Answer(NamedTuple):
    """One HTTP answer: its status, its JSON body and its Retry-After (seconds, or None)."""

    status: int
    body: Any
    retry_after: Optional[float]


class RemoteNotConfigured(RuntimeError):
    """ARGUS_URL or ARGUS_TOKEN is missing."""


def settings() -> Tuple[str, str, Optional[str]]:
    """(base URL, token, session id or None) from the environment, or RemoteNotConfigured."""
    base = os.environ.get("ARGUS_URL", "").strip().rstrip("/")
    token = os.environ.get("ARGUS_TOKEN", "").strip()
    if not base:
        raise RemoteNotConfigured(
            "Neural vision tools run on an Argus server: set ARGUS_URL (e.g. http://localhost:3000) "
            "and ARGUS_TOKEN (the session's token or a function token from the Code tab)"
        )
    if not token:
        raise RemoteNotConfigured(f"ARGUS_URL is set to {base} but ARGUS_TOKEN is empty: set it to the session's token or a function token")
    parsed = urllib.parse.urlparse(base)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise RemoteNotConfigured(f"ARGUS_URL must be an http(s) URL such as http://localhost:3000, got {base!r}")
    session = os.environ.get("ARGUS_SESSION", "").strip() or None
    return base, token, session


def multipart_body(fields: Dict[str, str], files: Dict[str, Tuple[str, str, bytes]]) -> Tuple[bytes, str]:
    """A multipart/form-data body and its Content-Type. `files` maps a field to (file name, media type, bytes)."""
    boundary = f"argus-{uuid.uuid4().hex}"
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n'
            f"Content-Type: application/json; charset=utf-8\r\n\r\n".encode() + value.encode("utf-8") + b"\r\n"
        )
    for name, (filename, media_type, data) in files.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: {media_type}\r\n\r\n".encode() + data + b"\r\n"
        )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _retry_after(value: Optional[str]) -> Optional[float]:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def post_tool(name: str, png: bytes, params: Dict[str, Any]) -> Answer:
    """POST one image (PNG bytes) and the tool's keyword arguments; the answer whatever its status.

    Raises RemoteNotConfigured without ARGUS_URL/ARGUS_TOKEN, and ConnectionError
    when the server cannot be reached or answers something that is not JSON.
    """
    base, token, session = settings()
    body, content_type = multipart_body({"params": json.dumps(params, allow_nan=False)}, {"image": ("image.png", "image/png", png)})
    request = urllib.request.Request(
        f"{base}/api/tools/{urllib.parse.quote(name, safe='')}",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": content_type, "Accept": "application/json"},
    )
    if session:
        request.add_header("X-Argus-Session", session)
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_SECONDS) as response:
            status, raw, retry = response.status, response.read(), response.headers.get("Retry-After")
    except urllib.error.HTTPError as error:  # a 4xx/5xx still carries the JSON error body
        status, raw, retry = error.code, error.read(), error.headers.get("Retry-After")
    except (urllib.error.URLError, OSError) as error:
        raise ConnectionError(f"Could not reach Argus at {base} ({getattr(error, 'reason', error)}); is ARGUS_URL right and the server running?") from None
    try:
        parsed = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ConnectionError(f"Argus at {base} answered {status} with something that is not JSON: {raw[:200]!r}") from None
    return Answer(status, parsed, _retry_after(retry))
