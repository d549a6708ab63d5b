"""The README read as a user reads it: its blocks, its key lines, its commands.

The tour starts in README.md and goes on in docs/TOUR.md (a club night, a
phone, the engine): :func:`blocks` reads both, README first, so a section
is found wherever it is and every block of either is checked.

A ``text`` block of keys has a line per step: the keys (tmux's key names,
one space apart), two spaces or more, what the screens say as those keys
are pressed, and optionally, two spaces or more again, a comment in
brackets. The screens' part is the screens' own words (``rows`` of
``bower_host.screentext``), joined by ``:``, ``,`` or ``;``:

    j Enter        First dealer: Draw: black jack, Ann deals   (Ann deals first)

:func:`walk` presses each line's keys on a simulated device the way
``bower sim`` maps them and :func:`check_line` holds the line to what the
device showed: the title of every screen a key was pressed on, and the row
each Enter chose (each BSpace: the row marked ``(BACK)``), named in that
order; every word in the screens' part on one of those screens or the one
the keys led to. Nothing but the comment is free text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
#: The files the tour is printed in, in reading order.
TOUR = [README, REPO / "docs" / "TOUR.md"]

#: What tmux sends for the key names the README uses: the characters ``bower sim`` reads.
TMUX_KEYS = {"Enter": "\r", "BSpace": "\x7f", "Space": " ", "Escape": "\x1b"}


@dataclass
class Block:
    lang: str
    text: str
    section: str          # the title of the ### or ## section it is in

    def lines(self) -> list[str]:
        return [ln for ln in self.text.splitlines() if ln.strip()]


@dataclass
class KeyLine:
    keys: list[str]
    screens: str
    comment: str = ""
    raw: str = ""


@dataclass
class Step:
    """What a key line did: the screens its keys were pressed on and the one it led to."""
    line: KeyLine
    shown: list[list[tuple[str, bool]]] = field(default_factory=list)   # before each key, then after the last
    picks: list[str] = field(default_factory=list)                       # in order: titles and chosen rows


def blocks(text: str | None = None) -> list[Block]:
    text = "\n".join(p.read_text() for p in TOUR) if text is None else text
    out = []
    section = ""
    fence = None
    body: list[str] = []
    for ln in text.splitlines():
        if fence is None:
            m = re.match(r"^```(\w*)\s*$", ln)
            if m:
                fence, body = m[1], []
            elif ln.startswith("#"):
                section = ln.lstrip("#").strip()
        elif ln.startswith("```"):
            out.append(Block(fence, "\n".join(body) + "\n", section))
            fence = None
        else:
            body.append(ln)
    return out


def key_lines(block: Block) -> list[KeyLine]:
    out = []
    for ln in block.lines():
        parts = re.split(r"\s{2,}", ln.strip())
        if len(parts) < 2 or len(parts) > 3:
            raise AssertionError(f"a key line is keys, then the screens, then perhaps a comment: {ln!r}")
        keys = parts[0].split()
        bad = [k for k in keys if k not in TMUX_KEYS and not (len(k) == 1 and k.isprintable())]
        if bad:
            raise AssertionError(f"not a key name: {bad} in {ln!r}")
        comment = parts[2] if len(parts) == 3 else ""
        if comment and not (comment.startswith("(") and comment.endswith(")")):
            raise AssertionError(f"a comment is in brackets: {ln!r}")
        out.append(KeyLine(keys, parts[1], comment, ln))
    return out


def is_keys(block: Block) -> bool:
    return block.lang == "text"


def commands(block: Block) -> list[str]:
    """A shell block's commands as a shell runs them: lines joined at a trailing
    backslash, a ``for ... done`` loop as one command; comments kept (the shell drops them)."""
    out: list[str] = []
    cur = ""
    depth = 0
    for ln in block.text.splitlines():
        if not ln.strip() or (not cur and ln.lstrip().startswith("#")):
            continue
        cur += ln + "\n"
        if ln.rstrip().endswith("\\"):
            continue
        word = ln.split()[0]
        depth += word in ("for", "while", "if") and not ln.rstrip().endswith(("done", "fi"))
        depth -= word in ("done", "fi")
        if depth == 0:
            out.append(cur.rstrip("\n"))
            cur = ""
    assert not cur, f"an unfinished command: {cur!r}"
    return out


def normal(text: str) -> str:
    return " ".join(text.split())


def title(screen) -> str:
    return normal(screen[0][0])


def chosen(screen) -> str | None:
    rows = [normal(t) for t, sel in screen if sel]
    return rows[0] if rows else None


def back_row(screen) -> str | None:
    rows = [normal(t) for t, _ in screen[1:] if "(BACK)" in t]
    return rows[0] if rows else None


def walk(dev, lines: list[KeyLine]) -> list[Step]:
    """Press each line's keys on ``dev`` (a ``simulator.Device``) as ``bower sim`` maps them."""
    from bower_host import screentext
    from bower_host.commands import sim
    from bower import keys as K
    steps = []
    for kl in lines:
        step = Step(kl)
        seen = None
        for k in kl.keys:
            screen = screentext.rows(dev.app)
            step.shown.append(screen)
            if title(screen) != seen:
                seen = title(screen)
                step.picks.append(seen)
            ch = TMUX_KEYS.get(k, k)
            ev = K.BACK if ch == "\x1b" else sim._KEYS.get(ch)   # (a lone Escape is BACK)
            assert ev is not None, f"bower sim does nothing with {k!r}"
            pick = chosen(screen) if ev == K.OK else back_row(screen) if ev == K.BACK else None
            if pick:
                step.picks.append(pick)
            dev.press(ev)
        step.shown.append(screentext.rows(dev.app))
        steps.append(step)
    return steps


def fragments(screens: str) -> list[str]:
    return [f for f in (normal(x) for x in re.split(r"[:;,](?:\s+|$)", screens)) if f]


def check_line(step: Step, last: bool = False) -> None:
    """The line's screens part says what ``step`` showed (see the module's doc)."""
    said = normal(step.line.screens)
    want = step.picks + ([title(step.shown[-1])] if last else [])
    at = 0
    for w in want:
        i = said.find(w, at)
        assert i >= 0, (f"README key line {step.line.raw!r}: the screens say {w!r} here "
                        f"({' / '.join(want)}), the line says {said!r}")
        at = i + len(w)
    words = [normal(t) for screen in step.shown for t, _ in screen]
    for f in fragments(step.line.screens):
        assert any(f in w for w in words), (f"README key line {step.line.raw!r}: {f!r} is on none of its "
                                            f"screens: {[[t for t, _ in s] for s in step.shown]}")
