"""The one gate into the library: what a game log must be before anything of
it is stored.

Every way a game enters the library -- ``bower sync``, ``bower import``
(device logs, Bower's JSON export, EGN), ``bower club result``, ``bower
demo``, ``bower library rebuild`` and the network results to come -- hands
its raw bytes to ``Library.add_log``, which calls :func:`vet` first. A log
that fails is refused (:class:`Refused`, its one-line reason) and nothing of
it is written anywhere: no row, no archived file.

The checks, in order: the size (``MAX_LOG_BYTES``); UTF-8; every line's CRC
(a corrupt line before the last is salvaged only when the caller allows it:
a device's log is, a file handed in is not); the header's types and bounds
(``logs.check_header``); the device's and the game's ids (``names.SAFE_ID``,
the rule ``bower sync`` has always applied, so that every game's
``device/id`` names one archive file and one game); the players' names
(:func:`names_problem`); the id and device the caller gives against the
header's; then the whole game replayed through the engine, which applies the
variant's rules to every event.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from euchre import log as elog

from bower_host.db.logs import MAX_NAME, Decoded, Replay, decode, replay_decoded
from bower_host.names import id_problem

#: Largest game log the library takes: 4 MiB, more than a Pico 2's whole
#: flash (a 30-hand game is about 4 KB).
MAX_LOG_BYTES = 4 << 20


#: Why a log was refused, as ``Refused.code`` and ``AddResult.reason`` carry
#: it (the words are for people; a caller tells refusals apart by these).
TOO_BIG = "too_big"                 # over MAX_LOG_BYTES
NOT_TEXT = "not_text"               # not UTF-8
UNREADABLE = "unreadable"           # not a log (euchre.log cannot decode it)
TORN = "torn"                       # a torn last line where none may be
BAD_ID = "bad_id"                   # a device or game id that is no id
OTHER_KEY = "other_key"             # the header names another game than the one listed
NO_ID = "no_id"                     # no game id, or no device id
OTHER_DEVICE = "other_device"       # the header names another device than the one it came from
ILLEGAL = "illegal"                 # the game does not replay: an input breaks a rule
BAD_NAMES = "bad_names"             # its players cannot be stored
CONFLICT = "conflict"               # against the library's copy: another game, or not an extension
ADMIT = "admit"                     # the caller's own check (a club round that does not fit its night)


class Refused(Exception):
    """A log the gate will not let in; ``str()`` is the reason, one line;
    ``where`` the game it says it is (``device/id``), when it says; ``code``
    which rule it broke (TOO_BIG, NOT_TEXT, ...)."""

    def __init__(self, why: str, where: str | None = None, code: str = ADMIT):
        super().__init__(why)
        self.where = where
        self.code = code


@dataclass
class Vetted:
    """A log that passed the gate: what ``Library.add_log`` stores."""
    raw: bytes
    sha: str
    device: str
    key: str
    name: str
    decoded: Decoded
    replay: Replay


def names_problem(players: list) -> str | None:
    """Why a game's players cannot be stored, or None: each name 1 to
    ``MAX_NAME`` printable characters with no space first or last, and
    each player named once (a library tells players apart by name)."""
    seen = set()
    for n in players:
        if not isinstance(n, str) or not 0 < len(n) <= MAX_NAME or not n.isprintable() or n != n.strip():
            return (f"player name {_show(n)} is not a name (1 to {MAX_NAME} printable characters, no space first "
                    "or last)")
        if n in seen:
            return f"{_show(n)} is seated twice"
        seen.add(n)
    return None


def vet(raw: bytes, device: str | None, name: str, key: str | None = None, salvage: bool = True) -> Vetted:
    """Check a log against every rule of the gate (see the module's docstring).

    :param device: the device the log came from (None: the header's).
    :param key: the game id the device listed it under (None: the header's).
    :param salvage: take the good lines before a corrupt one (a device's log,
        whose flash may fail); False refuses such a log and a torn last line.
    :raises Refused: why not, in one line.
    """
    raw = bytes(raw)
    if len(raw) > MAX_LOG_BYTES:
        raise Refused(f"{len(raw):,} bytes, more than the {MAX_LOG_BYTES >> 20} MiB a game log can be", code=TOO_BIG)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Refused(f"not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start})", code=NOT_TEXT) from None
    try:
        dec = decode(text, salvage=salvage)
    except elog.LogError as e:
        raise Refused(f"unreadable log: {e}", code=UNREADABLE) from None
    try:
        return _vet_decoded(raw, dec, device, name, key, salvage)
    except Refused as e:
        h = dec.header
        e.where = e.where or f"{_id_shown(device or h.get('device'))}/{_id_shown(key or h.get('id'))}"
        raise


def _vet_decoded(raw: bytes, dec: Decoded, device: str | None, name: str, key: str | None,
                 salvage: bool) -> Vetted:
    if not salvage and dec.dropped:
        raise Refused(f"its last line is torn ({dec.dropped})", code=TORN)
    header = dec.header
    for field in ("device", "id"):
        value = header.get(field)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise Refused(f"line 1: header field {field!r} is {_show(value)}, not an id", code=BAD_ID)
            why = id_problem(str(value))
            if why:
                raise Refused(f"line 1: header field {field!r} is {_show(value)}: {why}", code=BAD_ID)
    hkey = str(header["id"]) if header.get("id") is not None else None
    if key is not None and hkey is not None and hkey != key:
        raise Refused(f"the log says it is game {_show(hkey)}, but the device lists it as {key}", code=OTHER_KEY)
    key = hkey or key
    if key is None:
        raise Refused("no game id: its header has none", code=NO_ID)
    hdev = str(header["device"]) if header.get("device") is not None else None
    if device and hdev and hdev != device:
        raise Refused(f"the header says device {hdev}, but the log came from device {device}", code=OTHER_DEVICE)
    device = device or hdev
    if not device:
        raise Refused("no device id: neither given nor in the header", code=NO_ID)
    why = id_problem(device) or id_problem(key)
    if why:
        raise Refused(f"{_show(device)}/{_show(key)}: {why}", code=BAD_ID)
    try:
        rp = replay_decoded(dec)
    except elog.LogError as e:
        raise Refused(f"does not replay: {e}", code=ILLEGAL) from None
    why = names_problem(list(rp.game.players))
    if why:
        raise Refused(f"line 1: {why}", code=BAD_NAMES)
    return Vetted(raw, hashlib.sha256(raw).hexdigest(), device, key, name, dec, rp)


def _id_shown(v) -> str:
    # An id as a refusal names its game: as given, on one line, cut short.
    text = "?" if v is None or v == "" else str(v)
    return "".join(c if c.isprintable() else "?" for c in text[:64])


def _show(v) -> str:
    t = repr(v)
    return t if len(t) <= 40 else t[:37] + "..."

