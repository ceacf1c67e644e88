"""OpenCV, imported at its first use rather than when argus is imported.

Every kernel runs `from argus import *` as it starts, and importing cv2 is most of
what that costs (about half a CPU-second); a kernel whose cells never touch OpenCV
(plain Python, a pooled spare nobody takes) should not pay it. ARGUS_KERNEL_PRELOAD=vision
(argus.preload) still imports it ahead of the first cell where that is wanted.
Modules write `from ._cv2 import cv2` and use `cv2.name` inside their functions.
"""
import importlib
from types import ModuleType
from typing import Any, Optional

_module: Optional[ModuleType] = None


class _OpenCV:
    """Stands for the cv2 module: the first attribute read imports it."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        global _module
        if _module is None:
            _module = importlib.import_module("cv2")
        return getattr(_module, name)

    def __repr__(self) -> str:
        return repr(_module) if _module is not None else "<cv2, imported at its first use>"


cv2: Any = _OpenCV()
