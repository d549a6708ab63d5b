"""The PRESET request of the sync protocol (host/PROTOCOL.md): a rules
file's presets as the words of ``PRESET I N ...``, and their push (one
request each; the device writes its flash at the last, so a push cut short
changes nothing), sent by ``Client.presets``."""

from __future__ import annotations

import re

from bower_host.framing import CorruptReply, encode_request, quote_name, show_line

#: Most presets a device keeps (bower.presets.MOST).
MAX_PRESETS = 8
#: A word PRESET sends as an option's value as it is (not true, false or a number).
_VALUE_WORD = re.compile(r"[!-~]+\Z")


def preset_words(p: dict) -> list[str]:
    """The words of ``PRESET I N`` after I and N for the preset ``p`` (a
    rules file's): NAME VARIANT TARGET QUICK OPTION=VALUE ...

    :raises ValueError: a field no word can carry.
    """
    words = [quote_name(p["name"]), str(p["variant"]),
             "-" if p.get("target") is None else _value_word(p["target"]), "1" if p.get("quick") else "0"]
    for k, v in p.get("options", {}).items():
        if not isinstance(k, str) or not k or not _VALUE_WORD.match(k) or "=" in k:
            raise ValueError(f"option {k!r}: an option's name is one word without '='")
        words.append(f"{k}={_value_word(v)}")
    return words


def _value_word(v) -> str:
    # An option's value as PRESET's word: true, false, a whole number, or a word (LEFT_OF_LONER).
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int) and v >= 0:
        return str(v)
    if isinstance(v, str) and _VALUE_WORD.match(v) and v not in ("true", "false") and not v.isdigit():
        return v
    raise ValueError(f"the value {v!r}: PRESET carries true, false, a whole number or a word")


def requests(presets: list[dict], maxline: int) -> list[tuple]:
    """The arguments of the ``PRESET I N ...`` requests that replace a
    device's presets with ``presets`` (a rules file's: name, variant,
    options, target, quick; docs/RULES.md), in order; [] removes them all
    (``PRESET 0 0``).

    :raises ValueError: more than the device keeps, or a preset no request
        of at most ``maxline`` bytes can carry (checked before anything is sent).
    """
    if len(presets) > MAX_PRESETS:
        raise ValueError(f"{len(presets)} presets: a device keeps at most {MAX_PRESETS}")
    n = len(presets)
    out = [(i, n, *preset_words(p)) for i, p in enumerate(presets, 1)] or [(0, 0)]
    for args in out:
        if len(encode_request("zzzz", "PRESET", *args)) - 1 > maxline:
            raise ValueError(f"preset {args[0]} makes a request longer than the device reads")
    return out


def check_reply(r, i: int) -> None:
    """:raises CorruptReply: ``r`` is not ``OK I``."""
    if r.words[1:] != [str(i)]:
        raise CorruptReply(f"the device answered PRESET with {show_line(r.raw)}, not OK {i}: is it a Bower?")
