"""Shared test helpers: a temporary workspace to chdir into, and real test images."""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path

import numpy as np
from skimage import data


class WorkspaceTestCase(unittest.TestCase):
    """Each test runs with the current directory set to a fresh temporary
    directory (the kernel's cwd is the session workspace, so relative paths matter)."""

    def setUp(self) -> None:
        super().setUp()
        self._previous_cwd = os.getcwd()
        self._tmp = tempfile.TemporaryDirectory(prefix="argus-test-")
        self.workspace = Path(self._tmp.name).resolve()
        os.chdir(self.workspace)
        self.addCleanup(self._tmp.cleanup)
        self.addCleanup(os.chdir, self._previous_cwd)


def astronaut() -> np.ndarray:
    """512x512 RGB uint8 photo."""
    return data.astronaut()


def chelsea() -> np.ndarray:
    """300x451 RGB uint8 photo of a cat (not square, so width/height mix-ups show)."""
    return data.chelsea()


def coins() -> np.ndarray:
    """303x384 gray uint8 photo of coins."""
    return data.coins()
