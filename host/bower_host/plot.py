"""``bower plot``: a game's score progression as a PNG chart.

The chart is drawn with matplotlib's Agg canvas (no display needed) into
memory, then written by :mod:`bower_host.outputs` (never onto the library,
a FIFO or a device; through a temporary file renamed onto the target).

Names may be any printable text (an import brings them from anywhere), so
the chart's fonts are chosen for its characters (``chart_fonts``): the
default sans-serif first, then, for each character it lacks, an installed
font that has it (matplotlib falls back along the family list). A
character no installed font has is said on stderr, in one line; the chart
is still written. Text is never read as mathtext: a ``$`` in a name is a
dollar sign.
"""

from __future__ import annotations

import io
import os
import sys
import warnings
from pathlib import Path

from euchre import Rules

from bower_host.errors import CommandError
from bower_host.gamesview import _date, result_text, sides

#: matplotlib's own last resort: a box (with the code point) for any character.
LAST_RESORT = "Last Resort"
#: The characters named in the warning, at most.
SHOWN_MISSING = 8
#: The winner's star, in points (its label keeps clear of it by ``LABEL_GAP``).
STAR = 18
LABEL_GAP = 8


def _charmap(path: str, cache: dict) -> set:
    # The code points the font file ``path`` has a glyph for.
    from matplotlib import ft2font

    if path not in cache:
        try:
            cache[path] = set(ft2font.FT2Font(path).get_charmap())
        except (OSError, RuntimeError, ValueError):     # a font file FreeType cannot read
            cache[path] = set()
    return cache[path]


def chart_fonts(texts: dict) -> tuple[list[str], list[tuple[str, str]]]:
    """``(families, missing)`` for a chart showing ``texts`` (``{weight:
    [text, ...]}``, weights as matplotlib's: "normal", "bold"): the font
    families to draw with, matplotlib's default sans-serif first, then an
    installed family for each character the ones before lack in that weight;
    and the ``(character, weight)`` pairs (no white space) no installed font has."""
    import logging

    from matplotlib import font_manager as fm

    cache: dict = {}

    def has(family: str, weight: str, ch: str) -> bool:
        path = fm.findfont(fm.FontProperties(family=[family], weight=weight), fallback_to_default=False)
        return ord(ch) in _charmap(path, cache)

    log = logging.getLogger("matplotlib.font_manager")
    level = log.level
    log.setLevel(logging.ERROR)      # "failed to find font weight bold for cmr10, now using 400", per family
    try:
        first = fm.get_font(fm.findfont(fm.FontProperties(family=["sans-serif"]))).family_name
        families = [first]
        others = sorted({f.name for f in fm.fontManager.ttflist if not f.name.startswith(LAST_RESORT)} - {first})
        missing = []
        for weight, group in texts.items():
            for ch in sorted({c for t in group for c in t if not c.isspace()}):
                if any(has(f, weight, ch) for f in families):
                    continue
                found = next((f for f in others if has(f, weight, ch)), None)
                if found is None:
                    missing.append((ch, weight))
                else:
                    families.append(found)
    finally:
        log.setLevel(level)
    return families, missing


def _missing_line(missing: list[tuple[str, str]]) -> str:
    shown = missing[:SHOWN_MISSING]
    more = f" and {len(missing) - len(shown)} more" if len(missing) > len(shown) else ""
    chars = " ".join(f"{c} (U+{ord(c):04X}{'' if w == 'normal' else ', ' + w})" for c, w in shown)
    return (f"bower: no installed font has {chars}{more}: the chart shows a box for each; install a font that "
            "has them (such as Noto Sans CJK) to see them")


def plot_game(g: dict, hands: list[dict]) -> bytes:
    """Score progression per side (partnerships) or player, winner marked: a PNG."""
    import matplotlib
    from matplotlib.figure import Figure   # the Agg canvas: no display needed
    from matplotlib.ticker import MaxNLocator

    rules = Rules(g["variant"], g["options"])
    title = f"{rules.title}, {g['device']}/{g['game_key']}"
    if g["started"]:
        title += f", {_date(g['started'])}"
    title += f"\n{result_text(g)}"
    xs = [0] + [h["number"] for h in hands]
    winners = set(g["winners"] or []) if g["finished"] else set()
    series = []
    for label, seats in sides(g):
        # (from the score the game started at: the first hand's less its points)
        ys = [hands[0]["scores"][seats[0]] - hands[0]["points"][seats[0]] if hands else g["scores"][seats[0]]]
        ys += [h["scores"][seats[0]] for h in hands]
        series.append((label, ys, bool(winners & set(seats))))
    marked: dict = {}
    for label, ys, won in series:
        if won:
            marked.setdefault(ys[-1], []).append(label)
    notes = {y: f"{', '.join(labels)} {y}" for y, labels in marked.items()}
    families, missing = chart_fonts({"normal": [title, *(s[0] + " (winner)" for s in series)],
                                     "bold": list(notes.values())})
    if missing:
        print(_missing_line(missing), file=sys.stderr)
    with matplotlib.rc_context({"font.family": families, "text.parse_math": False}), warnings.catch_warnings():
        # (matplotlib's warning per missing glyph: said above, once, in one line)
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font", category=UserWarning)
        fig = Figure(figsize=(8, 4.5), dpi=100)
        ax = fig.add_subplot()
        for label, ys, won in series:
            line, = ax.plot(xs, ys, marker="o", markersize=3, linewidth=2.4 if won else 1.5,
                            drawstyle="steps-post", label=label + (" (winner)" if won else ""))
            if won:
                ax.plot([xs[-1]], [ys[-1]], marker="*", markersize=STAR, color=line.get_color(),
                        markeredgecolor="black", zorder=5, gid="winner-star")
        for y, note in notes.items():
            # Left of the star, level with it, clear of it; on a light box over the lines.
            ax.annotate(note, (xs[-1], y), textcoords="offset points", xytext=(-(STAR / 2 + LABEL_GAP), 0),
                        ha="right", va="center", fontweight="bold", zorder=6, gid="winner-label",
                        bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
        ax.axhline(rules.winning_score, color="grey", linestyle="--", linewidth=1,
                   label=f"target {rules.winning_score}")
        ax.set_xlabel("hand")
        ax.set_ylabel("score")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.margins(y=0.08)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left", fontsize="small")
        ax.set_title(title)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
    return buf.getvalue()


def chart_path(output: str | None, game: int) -> Path:
    """The file ``bower plot -o OUTPUT`` writes: ``bower-<game>.png`` in the
    current directory or in OUTPUT when that is a directory; OUTPUT as given
    when it exists (whatever it is: ``outputs`` then judges it, so
    ``/dev/full`` is a device, not ``/dev/full.png``), else with ``.png``
    added when it has no extension."""
    name = f"bower-{game}.png"
    if output is None:
        return Path(name)
    if not output:
        raise CommandError("-o is empty: give a file name")
    path = Path(output)
    if path.is_dir():
        return path / name
    if output.endswith(("/", os.sep)):
        raise CommandError(f"cannot write the chart: there is no directory {output}")
    if os.path.lexists(path) or path.suffix:
        return path
    return path.with_name(path.name + ".png")
