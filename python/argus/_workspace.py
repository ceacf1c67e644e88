"""Paths inside the session workspace (the kernel's current directory).

Internal module: argument checking for paths and the "file not found" message
that lists what IS there, so the planner can correct a wrong file name in one turn.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ._convert import type_name

LISTED_ENTRIES = 10


def as_path(value: Any, fn: str, argument: str) -> Path:
    """`value` as a Path, or TypeError/ValueError naming `argument` of `fn`."""
    if isinstance(value, (str, os.PathLike)):
        text = os.fspath(value)
        if isinstance(text, str) and text.strip():
            return Path(text).expanduser()
        raise ValueError(f"{fn}: {argument} must be a non-empty path, got {value!r}")
    raise TypeError(f"{fn}: {argument} must be a file path (str or pathlib.Path), got {type_name(value)}")


def list_directory(directory: Path, limit: int = LISTED_ENTRIES) -> str:
    """'a.png, b.jpg, uploads/ (and 4 more)' for the visible entries of `directory`."""
    try:
        names = sorted(
            entry.name + ("/" if entry.is_dir() else "")
            for entry in os.scandir(directory)
            if not entry.name.startswith(".")
        )
    except OSError as error:
        return f"(could not list it: {error.strerror or error})"
    if not names:
        return "(it is empty)"
    shown = ", ".join(names[:limit])
    if len(names) > limit:
        shown += f" (and {len(names) - limit} more)"
    return shown


def missing_file_error(fn: str, path: Path) -> FileNotFoundError:
    """FileNotFoundError naming `path` and listing the files next to where it was expected."""
    parent = path.parent if str(path.parent) not in ("", ".") else Path.cwd()
    if not parent.is_dir():
        parent = Path.cwd()
    where = "the workspace" if parent.resolve() == Path.cwd().resolve() else f"'{parent}'"
    hint = ""
    if str(path).startswith(("http:/", "https:/")):
        hint = " URLs cannot be fetched here (no network): use a file in the workspace."
    return FileNotFoundError(
        f"{fn}: no file at '{path}' (current directory {Path.cwd()}). "
        f"Files in {where}: {list_directory(parent)}.{hint}"
    )


def existing_file(value: Any, fn: str, argument: str) -> Path:
    """Checked path to an existing regular file, relative paths taken from the current directory."""
    path = as_path(value, fn, argument)
    if path.is_dir():
        raise IsADirectoryError(
            f"{fn}: {argument} '{path}' is a directory, not a file. It contains: {list_directory(path)}"
        )
    if not path.is_file():
        raise missing_file_error(fn, path)
    return path


def is_inside_cwd(path: Path) -> bool:
    """True when `path` (after resolving .. and symlinks) lies inside the current directory."""
    cwd = Path.cwd().resolve()
    resolved = path.resolve()
    return resolved == cwd or cwd in resolved.parents
