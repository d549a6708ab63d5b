"""What every format of ``bower import`` comes to: an :class:`Item`, a game log
ready to store, or an :class:`ImportProblem` saying why not.

A device log is read as it is (:func:`from_log`); the other formats rebuild
the log from a game replayed through the engine (``replay_log``, ``apply_event``,
``dump_game``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from euchre import IllegalAction
from euchre import log as elog

from bower_host.db import decode, replay_decoded
from bower_host.inputs import InputError, utf8_text


class ImportProblem(Exception):
    """A file (or a game in it) that cannot be imported; the message says why."""


@dataclass
class Item:
    """One game log ready to store."""
    raw: bytes
    device: str
    key: str
    name: str
    note: str = ""      # what the user should know of how it went in (one line)
    salvage: bool = False   # store the good lines before a corrupt one, as a sync does (a phone's export)


def from_log(raw: bytes, name: str, device: str | None = None) -> Item:
    """A device log, checked by replay.

    :raises ImportProblem: it does not decode or replay, or names no device.
    """
    rp = replay_log(raw, "the log")
    dev = rp.header.get("device") or device
    if not dev:
        raise ImportProblem("the log names no device (its header has none): give --device ID")
    if device and rp.header.get("device") and str(rp.header["device"]) != device:
        raise ImportProblem(f"the log says device {rp.header['device']}, not {device}")
    return Item(raw, str(dev), game_key(rp.header), name)


def replay_log(raw: bytes, what: str):
    try:
        text = utf8_text(raw, what)
    except InputError as e:
        raise ImportProblem(str(e)) from None
    try:
        rp = replay_decoded(decode(text))
    except elog.LogError as e:
        raise ImportProblem(f"{what} does not replay: {e}") from e
    if rp.dropped:
        raise ImportProblem(f"{what} has a torn last line ({rp.dropped})")
    return rp


def show(v) -> str:
    """A value from a file, as JSON, cut for a message."""
    t = json.dumps(v, ensure_ascii=False)
    return t if len(t) <= 40 else t[:37] + "..."


def game_key(header: dict) -> str:
    key = header.get("id")
    if not isinstance(key, (str, int)) or isinstance(key, bool) or not str(key):
        raise ImportProblem("the log's header has no game id")
    return str(key)


def iso_seconds(iso) -> int | None:
    if not isinstance(iso, str) or not iso:
        return None
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00").replace(" ", "T"))
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return int(t.timestamp())


def dump_game(game, key: str, device: str, started: int | None) -> bytes:
    extra: dict[str, str | int] = {"id": key, "device": device}
    if started:
        extra["started"] = started
    return elog.dumps(game, extra=extra).encode("utf-8")


def apply_event(game, ev: str, i: int) -> None:
    try:
        game.apply(ev)
    except (IllegalAction, ValueError) as e:
        raise ImportProblem(f"deal {i}: {ev!r} does not replay: {e}") from e
