"""The library's errors, and what an SQLite error means for it."""

from __future__ import annotations

from pathlib import Path


class LibraryError(Exception):
    """The library cannot be opened or used (bad path, unknown schema version)."""


class LibraryDamaged(LibraryError):
    """The library file is damaged (bad pages, a missing table or column)."""

    #: What is wrong, in a few words (the message says it too, with the way out).
    why: str = ""


def is_damage(e: Exception) -> bool:
    """Does this SQLite error mean a damaged file (rather than, say, a
    read-only directory or a lock)?"""
    text = str(e).lower()
    return any(w in text for w in ("malformed", "not a database", "no such table", "no such column", "corrupt"))


def write_hint(path: Path, e: Exception) -> str:
    """What to check when ``e`` stopped a write to the library ``path``
    (permissions, another bower), or ""."""
    text = str(e).lower()
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return f" (can this user write to {path.parent}?)"
    if "locked" in text or "busy" in text:
        return " (another bower is using it: try again when it is done)"
    return ""
