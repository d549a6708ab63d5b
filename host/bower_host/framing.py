"""The lines of Bower's link protocol (host/PROTOCOL.md), and its errors.

A request is one line ``#B? TAG CMD ARG ... CRC`` (:func:`encode_request`);
a reply is ``#B! TAG STATUS FIELD ... CRC`` (:func:`parse_reply` reads it,
or returns None for a line that is not one). :mod:`bower_host.protocol`'s
``Client`` holds the conversation built on them.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from dataclasses import dataclass

REQUEST = b"#B? "
REPLY = b"#B! "
_TAG = re.compile(rb"[0-9A-Za-z]{1,8}\Z")
HEX8 = re.compile(rb"[0-9a-f]{8}\Z")
_SAFE_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'")


class ProtocolError(Exception):
    """The conversation with the device failed."""


class LinkTimeout(ProtocolError):
    """No reply in time."""


class CorruptReply(ProtocolError):
    """A reply failed its checksum or made no sense, even after retries."""


class DeviceChanged(ProtocolError):
    """A different device answered after a reconnect."""


class DeviceError(ProtocolError):
    """The device answered with an error reply (``code`` as in PROTOCOL.md)."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{message} ({code})" if message else code)
        self.code = code
        self.message = message


def crc_hex(data: bytes) -> str:
    """CRC-32 (zlib/binascii) as 8 lower-case hex digits."""
    return "%08x" % (zlib.crc32(data) & 0xFFFFFFFF)


def encode_request(tag: str, cmd: str, *args: object) -> bytes:
    """One request line: ``#B? TAG CMD ARG ... CRC\\n``."""
    words = [tag, cmd, *map(str, args)]
    for w in words:
        if not w or any(not 0x21 <= ord(c) <= 0x7E for c in w):
            raise ValueError(f"request word {w!r} must be non-empty printable ASCII without spaces")
    body = REQUEST + " ".join(words).encode("ascii")
    return body + b" " + crc_hex(body).encode() + b"\n"


def quote_name(name: str) -> str:
    """A ROSTER name as one request word: bytes other than letters, digits and
    ``-._~'`` become ``%XX``."""
    return "".join(chr(b) if b in _SAFE_NAME else "%%%02X" % b for b in name.encode("utf-8"))


@dataclass
class Reply:
    tag: str
    words: list[str]        # status word first ("OK", "ERR", "GAME"), then the fields
    raw: bytes = b""

    @property
    def status(self) -> str:
        return self.words[0]


def parse_reply(line: bytes) -> Reply | None:
    """A reply line, or None if the line is not one (noise).

    :raises CorruptReply: the line has the reply marker but its checksum or
        shape is wrong.
    """
    line = line.rstrip(b"\r\n")
    start = line.find(REPLY)
    if start < 0:
        return None
    # Tolerate noise glued to the front of a line (a REPL prompt without a newline).
    line = line[start:]
    sp = line.rfind(b" ")
    body, crc = line[:sp], line[sp + 1:]
    if sp < len(REPLY) or not HEX8.match(crc):
        raise CorruptReply(f"malformed reply line {show_line(line)}")
    if crc_hex(body).encode() != crc:
        raise CorruptReply(f"reply failed its checksum: {show_line(line)}")
    words = body[len(REPLY):].split(b" ")
    if len(words) < 2 or not _TAG.match(words[0]) and words[0] != b"-":
        raise CorruptReply(f"malformed reply line {show_line(line)}")
    try:
        text = [w.decode("ascii") for w in words]
    except UnicodeDecodeError:
        raise CorruptReply(f"reply is not ASCII: {show_line(line)}") from None
    return Reply(text[0], text[1:], line)


def show_line(line: bytes, limit: int = 80) -> str:
    s = line[:limit].decode("ascii", "replace")
    return repr(s + ("..." if len(line) > limit else ""))


def chunk_data(r: Reply, game_id: str, offset: int, n: int) -> bytes:
    """The data of a GET reply, checked against the request and its CRC."""
    try:
        gid, off, count, crc, data = r.words[1:6]
        if gid != game_id or int(off) != offset:
            raise ValueError("a chunk of another request")
        raw = b"" if data == "-" else base64.b64decode(data, validate=True)
        if len(raw) != int(count) or len(raw) > n or crc_hex(raw) != crc:
            raise ValueError("chunk checksum or length mismatch")
    except (ValueError, binascii.Error) as e:
        raise CorruptReply(f"chunk of {game_id} at offset {offset}: {e}") from None
    return raw
