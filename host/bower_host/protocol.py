"""The host side of Bower's link protocol (host/PROTOCOL.md).

:class:`Client` talks to the device over a transport with ``write(bytes)``
and ``readline(timeout) -> bytes | None`` (:class:`bower_host.transport.SerialTransport`)::

    client = Client(SerialTransport.open())
    info = client.hello()                 # DeviceInfo(proto=1, device="e661...", ...)
    for g in client.list():               # [GameEntry(id="g0001", size=..., crc=..., ...)]
        data = client.get(g.id, 0, 2048)
    client.synced("g0001", crc)

Lines that are not replies (REPL banners, echoes, noise) are skipped. A reply
whose checksum fails, or a timeout, makes the client re-send the request (with
a fresh tag, so a late answer to the old one is ignored); after a timeout it
first repeats the handshake, in case the device was reset. Errors (in
:mod:`bower_host.framing`, with the lines themselves): :class:`LinkTimeout`,
:class:`CorruptReply`, :class:`DeviceError` (an error reply, with ``code``),
:class:`DeviceChanged`, and the transport's
:class:`~bower_host.transport.DeviceGone`.
"""

from __future__ import annotations

import random
import re
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from bower_host.transport import Transport
from bower_host.framing import (HEX8, CorruptReply, DeviceChanged, DeviceError, LinkTimeout, ProtocolError, Reply,
                                 chunk_data, encode_request, parse_reply, quote_name, show_line)
from bower_host.presetpush import MAX_PRESETS, check_reply, preset_words, requests

__all__ = ["PROTO", "MAX_CHUNK", "MAX_LIST", "MAX_PRESETS", "Client", "DeviceInfo", "GameEntry", "preset_words"]

PROTO = 1
MAX_CHUNK = 2048
#: Most games a LIST reply may announce: a Pico's flash holds a few hundred
#: game files. A longer listing is refused before its entries are read.
MAX_LIST = 4096
_TAG_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: CLOCK's reply: the offset in whole seconds, as the device writes it ("%d").
_OFFSET = re.compile(r"(0|-?[1-9][0-9]{0,18})\Z")


@dataclass
class DeviceInfo:
    proto: int
    firmware: str
    device: str
    used: int
    free: int
    games: int
    time: int
    chunk: int = MAX_CHUNK
    maxline: int = 512
    extra: dict = field(default_factory=dict)


@dataclass
class GameEntry:
    id: str
    size: int
    crc: str
    state: str
    synced: bool


class Client:
    """A conversation with one device.

    :param transport: ``write(bytes)``, ``readline(timeout) -> bytes | None``.
    :param timeout: seconds to wait for each reply.
    :param retries: extra attempts after a timeout or a corrupt reply.
    """

    def __init__(self, transport: Transport, *, timeout: float = 2.0, retries: int = 3):
        self.t = transport
        self.timeout = timeout
        self.retries = retries
        self.info: DeviceInfo | None = None
        self._n = random.randrange(36 ** 4)
        self.noise: list[bytes] = []      # recent non-protocol lines (for error messages)
        self.resent = 0                   # requests sent again (corrupt replies, timeouts)
        self._last: ProtocolError | None = None

    # ----- commands ------------------------------------------------------

    def hello(self) -> DeviceInfo:
        """Handshake: protocol version, firmware, device id, storage, game count."""
        return self._hello(self._request("HELLO", PROTO))

    def _hello(self, r: Reply) -> DeviceInfo:
        kv = {}
        for w in r.words[1:]:
            k, eq, v = w.partition("=")
            if eq:
                kv[k] = v
        try:
            info = DeviceInfo(
                proto=int(kv.pop("proto")), firmware=kv.pop("fw"), device=kv.pop("dev"),
                used=int(kv.pop("used")), free=int(kv.pop("free")), games=int(kv.pop("games")),
                time=int(kv.pop("time", "0")), chunk=int(kv.pop("chunk", MAX_CHUNK)),
                maxline=int(kv.pop("maxline", 512)), extra=kv)
        except (KeyError, ValueError) as e:
            raise CorruptReply(f"handshake reply lacks or garbles {e}: {show_line(r.raw)}") from None
        if info.proto != PROTO:
            raise ProtocolError(f"the device speaks link protocol {info.proto}; this bower speaks {PROTO}: "
                                "update bower or the firmware")
        if self.info is not None and info.device != self.info.device:
            raise DeviceChanged(f"device {info.device} answered instead of {self.info.device}")
        self.info = info
        return info

    def list(self) -> list[GameEntry]:
        """The games stored on the device."""
        started = time.monotonic()
        for attempt in range(self.retries + 1):
            first, items = self._exchange("LIST", (), attempt, want_items=True)
            if first is None:
                continue
            out = []
            for it in items:
                try:
                    gid, size, crc, state, synced = it.words[1:6]
                    if not HEX8.match(crc.encode()) or synced not in ("0", "1"):
                        raise ValueError(crc)
                    out.append(GameEntry(gid, int(size), crc, state, synced == "1"))
                except ValueError:
                    self._last = CorruptReply(f"bad LIST entry {show_line(it.raw)}")
                    break
            else:
                return out
        raise self._failure(started)

    def get(self, game_id: str, offset: int, n: int = MAX_CHUNK, since: float | None = None) -> bytes:
        """Up to ``n`` bytes of a game's log from ``offset`` (b"" at the end);
        re-asked when the chunk fails its checks. ``since``: when the wait
        for this chunk began (``fetch``'s, before it asks again here)."""
        started = time.monotonic() if since is None else since
        for attempt in range(self.retries + 1):
            r, _ = self._exchange("GET", (game_id, offset, n), attempt)
            if r is None:
                continue
            try:
                return chunk_data(r, game_id, offset, n)
            except CorruptReply as e:
                self._last = e
        if isinstance(self._last, LinkTimeout):
            raise self._failure(started)
        raise CorruptReply(f"the chunk of {game_id} at offset {offset} failed its checks "
                           f"{self.retries + 1} times: {self._last}")

    def fetch(self, game_id: str, offset: int, end: int, chunk: int = MAX_CHUNK,
              window: int = 4) -> Iterator[bytes]:
        """Yield the bytes of ``[offset, end)`` of a game's log as chunks, in
        order, keeping up to ``window`` GET requests in flight (the device
        answers in order). A damaged or lost reply falls back to :meth:`get`
        (with its retries) for that chunk; a short chunk ends the iteration
        (the file is shorter than ``end``)."""
        pending: deque = deque()        # (tag, offset, n) sent, not yet answered
        nxt = offset
        while nxt < end or pending:
            while len(pending) < window and nxt < end:
                n = min(chunk, end - nxt)
                tag = self._tag()
                self.t.write(encode_request(tag, "GET", game_id, nxt, n))
                pending.append((tag, nxt, n))
                nxt += n
            tag, off, n = pending[0]
            lost = False
            waiting = time.monotonic()
            try:
                r = self._await({t for t, _, _ in pending})
                if r.tag != tag:            # replies come in order: ours was lost
                    lost = True
                    raise CorruptReply(f"the reply to GET {game_id} {off} was lost")
                if r.status == "ERR":
                    code = r.words[1] if len(r.words) > 1 else "?"
                    if code not in ("badcrc", "toolong"):
                        raise DeviceError(code, " ".join(r.words[2:]))
                    raise CorruptReply(f"the device could not read a GET ({code})")
                data = chunk_data(r, game_id, off, n)
                pending.popleft()
            except (CorruptReply, LinkTimeout) as e:
                # Start again from this chunk, one request at a time.
                self._last = e
                self.resent += 1
                pending.clear()
                if lost or isinstance(e, LinkTimeout):
                    self._rehandshake("GET")     # the device may have been reset
                data = self.get(game_id, off, n, since=waiting if isinstance(e, LinkTimeout) else None)
                nxt = off + len(data)
            yield data
            if len(data) < n:
                return

    def synced(self, game_id: str, crc: str) -> None:
        """Tell the device the host has stored the game whose file has this CRC."""
        self._request("SYNCED", game_id, crc)

    def synced_many(self, pairs: list[tuple[str, str]]) -> list[str]:
        """Tell the device about several stored games in one request
        (``SYNCED ID CRC ID CRC ...``): one word per game, ``ok``, ``stale``
        or ``badid``. Firmware that takes one game per request answers
        ``ERR badargs`` (a DeviceError): ask with :meth:`synced` then.
        One game is asked the one-game way (its errors raise DeviceError)."""
        if len(pairs) == 1:
            self.synced(*pairs[0])
            return ["ok"]
        args = [x for pair in pairs for x in pair]
        r = self._request("SYNCED", *args)
        words = r.words[1:1 + len(pairs)]
        if len(words) != len(pairs) or any(w not in ("ok", "stale", "badid") for w in words):
            raise CorruptReply(f"bad SYNCED reply {show_line(r.raw)}")
        return words

    def damaged(self, game_id: str, line: int) -> bool:
        """Tell the device the host stored a game only up to its corrupt line
        ``line`` (the device shows it); False if its firmware has no DAMAGED."""
        try:
            self._request("DAMAGED", game_id, int(line))
        except DeviceError as e:
            if e.code == "unknown":
                return False
            raise
        return True

    def roster(self, names: list[str]) -> int:
        """Replace the device's roster of player names; returns how many it
        stored. :raises CorruptReply: the reply is not ``OK`` and that number."""
        r = self._request("ROSTER", *[quote_name(n) for n in names])
        if r.words[1:] != [str(len(names))]:
            raise CorruptReply(f"the device answered ROSTER with {show_line(r.raw)}, not OK {len(names)} (the "
                               "number of names sent): the roster may not be on it; is it a Bower?")
        return len(names)

    def presets(self, presets: list[dict]) -> int:
        """Replace the device's presets (bower_host.presetpush); how many it keeps."""
        for args in requests(presets, self.info.maxline if self.info else 512):
            check_reply(self._request("PRESET", *args), args[0])
        return len(presets)

    def club(self, night: str | None, table: int = 0, rnd: int = 0, tables: int = 0, movement: str = "",
             hands: int = 0, minutes: int = 0, loner: int = 4, set_loner: int = 2, renege: int = 2,
             next_tables=(0, 0, 0, 0), names=()) -> None:
        """Set up the device's club round (host/CLUB.md, ``bower club push``):
        ``CLUB night table round tables movement hands minutes loner set_loner
        renege nextN nextE nextS nextW name1 name2 name3 name4``. ``hands`` or
        ``minutes`` is 0 (the round's length is the other); ``next_tables``:
        the table each seat's player sits at next round, 0 if not known in
        advance; ``names``: the players N, E, S, W. ``night=None`` clears the
        device's setup (``CLUB -``)."""
        if night is None:
            self._request("CLUB", "-")
            return
        next_tables, names = list(next_tables), list(names)
        if len(next_tables) != 4 or len(names) != 4:
            raise ValueError("a club round has four seats: four next tables and four names")
        self._request("CLUB", night, int(table), int(rnd), int(tables), movement, int(hands), int(minutes),
                      int(loner), int(set_loner), int(renege), *map(int, next_tables),
                      *[quote_name(n) for n in names])

    def clock(self, epoch: int) -> int:
        """Set the device clock to ``epoch`` (Unix seconds); returns the offset
        it stored (``epoch`` less its own clock, which is never negative).
        :raises CorruptReply: the reply is not ``OK`` and such an offset."""
        r = self._request("CLOCK", int(epoch))
        words = r.words[1:]
        if len(words) != 1 or not _OFFSET.match(words[0]) or int(words[0]) > int(epoch):
            raise CorruptReply(f"the device answered CLOCK with {show_line(r.raw)}, not OK and the offset it "
                               "stored: its clock may not be set; is it a Bower?")
        return int(words[0])

    # ----- machinery -----------------------------------------------------

    def _tag(self) -> str:
        self._n = (self._n + 1) % (36 ** 4)
        n, s = self._n, ""
        for _ in range(4):
            n, d = divmod(n, 36)
            s = _TAG_CHARS[d] + s
        return s

    def _request(self, cmd: str, *args) -> Reply:
        started = time.monotonic()
        for attempt in range(self.retries + 1):
            r, _ = self._exchange(cmd, args, attempt)
            if r is not None:
                return r
        raise self._failure(started)

    def _failure(self, started: float) -> ProtocolError:
        # What the last attempt ran into (every failed attempt sets it); a
        # timeout says how long every attempt together waited.
        if isinstance(self._last, LinkTimeout):
            return LinkTimeout(self._timeout_message(time.monotonic() - started))
        return self._last if self._last is not None else ProtocolError("no attempt was made")

    def _exchange(self, cmd, args, attempt, want_items=False):
        """One attempt: send, await the reply. Returns (reply, items) or
        (None, None) when the attempt should be retried (``self._last``
        holds why); raises errors that retrying cannot fix."""
        if attempt and isinstance(self._last, LinkTimeout):
            self._rehandshake(cmd)
        tag = self._tag()
        self.t.write(encode_request(tag, cmd, *args))
        if attempt:
            self.resent += 1
        try:
            r = self._await(tag)
            if r.status == "ERR":
                code = r.words[1] if len(r.words) > 1 else "?"
                msg = " ".join(r.words[2:])
                if code == "badcrc":  # our request was damaged on the way
                    self._last = CorruptReply(f"the device received a damaged {cmd} request")
                    return None, None
                raise DeviceError(code, msg)
            if r.status != "OK":
                raise CorruptReply(f"unexpected reply to {cmd}: {show_line(r.raw)}")
            items = []
            if want_items:
                try:
                    count = int(r.words[1])
                except (IndexError, ValueError):
                    raise CorruptReply(f"bad {cmd} reply {show_line(r.raw)}") from None
                if not 0 <= count <= MAX_LIST:
                    raise ProtocolError(f"the device lists {count:,} games, more than the {MAX_LIST:,} a Bower "
                                        "can hold: refused (is it a Bower, with sound flash?)")
                while len(items) < count:
                    it = self._await(tag)
                    if it.status != "GAME" or len(it.words) < 6:
                        raise CorruptReply(f"bad {cmd} entry {show_line(it.raw)}")
                    items.append(it)
            return r, items
        except (CorruptReply, LinkTimeout) as e:
            self._last = e
            return None, None

    def _await(self, tag) -> Reply:
        """The next reply line carrying ``tag`` (or one of a set of tags);
        skips noise and stale replies."""
        tags = {tag} if isinstance(tag, str) else tag
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            line = self.t.readline(max(0.0, left)) if left > 0 else None
            if line is None:
                raise LinkTimeout(self._timeout_message())
            r = parse_reply(line)        # CorruptReply propagates: retry
            if r is None:
                if line.strip():
                    self.noise = (self.noise + [line])[-5:]
                continue
            if r.tag in tags:
                self.noise = []
                return r
            if r.tag == "-" and r.status == "ERR":
                # An error the device could not tag: one of ours was damaged.
                raise CorruptReply(f"the device could not read a request: {' '.join(r.words[1:])}")

    def _timeout_message(self, waited: float | None = None) -> str:
        # ``waited``: the seconds every attempt at a request waited together
        # (each of the retries + 1 attempts waits ``timeout``; after a timeout
        # the handshake is repeated first, which can wait as long again).
        name = getattr(self.t, "name", "the port")
        if waited is None:
            msg = f"no reply from the device on {name} within {self.timeout:g} s"
        else:
            tries = "1 try" if self.retries == 0 else f"{self.retries + 1} tries"
            msg = (f"no reply from the device on {name} in {waited:.1f} s ({tries}, waiting up to "
                   f"{self.timeout:g} s for each reply)")
        if self.noise:
            last = self.noise[-1][:60].decode("ascii", "replace").strip()
            msg += f"; it printed {last!r}: is it at the MicroPython REPL instead of running Bower? " \
                   "press its reset button or run `mpremote reset`"
        else:
            msg += ": is the Bower app running on it?"
        return msg

    def _rehandshake(self, cmd: str) -> None:
        # After a timeout the device may have been reset (garbage, a banner,
        # then a fresh app): drop what is buffered and check, with one HELLO,
        # that the same device is there. A failure here is left to the retry.
        if cmd == "HELLO" or self.info is None:
            return
        if hasattr(self.t, "discard_input"):
            self.t.discard_input()
        last = self._last
        r, _ = self._exchange("HELLO", (PROTO,), 0)
        if r is not None:
            try:
                self._hello(r)  # raises DeviceChanged for another device
            except CorruptReply:
                pass
        self._last = last
