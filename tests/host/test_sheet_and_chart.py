"""What the written outputs look like (issue 32): every line of a club sheet
fits its frame; the chart's winner label keeps clear of the winner's star
and inside the plot; names in any script are drawn with an installed font
that has them, and a character no installed font has is said in one line.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from rich.cells import cell_len

from bower_host.club import night as cn
from bower_host.club.sheet import WIDTH, sheets
from bower_host.db import Library

from conftest import DEVICE, bot_game, log_bytes
from hostile import bower


def _names(count: int, length: int) -> list:
    # ``count`` different names of exactly ``length`` characters (1 to 8, the device's rule).
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = []
    for i in range(count):
        s, n = "", i
        for _ in range(length):
            s = digits[n % 36] + s
            n //= 36
        out.append(s if length > 1 or i < 36 else None)
    return out


NIGHT_NAMES = ["Friday", "W" * cn.MAX_NIGHT_NAME, "山" * cn.MAX_NIGHT_NAME]
#: (movement, tables, players): two-digit tables (fixed: "to table 12"), the partners schedule with byes.
SHAPES = [("progressive", 2, 8), ("progressive", 12, 48), ("fixed", 2, 8), ("fixed", 12, 48), ("partners", None, 8),
          ("partners", None, 35)]


@pytest.mark.parametrize("length", range(1, 9))
@pytest.mark.parametrize("night_name", NIGHT_NAMES, ids=["short", "longest", "longest-wide"])
def test_every_line_of_every_sheet_fits_its_frame(tmp_path, length, night_name):
    # Before: the round total line was 73 columns in a 64-column frame, a long night name pushed the
    # round and table off the edge, and fixed movements at two-digit tables ran past it.
    with Library(tmp_path / "lib.sqlite3") as lib:
        for i, (movement, tables, players) in enumerate(SHAPES):
            if length == 1 and players > 36:
                continue
            rounds = None if movement == "partners" else 3
            night = cn.create_night(lib, night_name, _names(players, length), tables, movement, rounds, hands=8,
                                    key=f"k{i}-" + "x" * 28)
            for page in sheets(night, 1).split("\f"):
                lines = page.splitlines()
                over = [ln for ln in lines if cell_len(ln) > WIDTH]
                assert not over, (movement, tables, over)
                assert lines[0] == "=" * WIDTH and night_name in "".join(lines[1:4])
                assert "Round total" in page and "Euchres" in page


# ----- the chart -----------------------------------------------------------------------------------

def _library(tmp_path, names, seed=3) -> str:
    db = str(tmp_path / "lib.sqlite3")
    with Library(db) as lib:
        assert lib.add_log(log_bytes(bot_game("classic", seed, names=names), "g1"), DEVICE, "g1.log").status == "new"
    return db


def _chart(tmp_path, monkeypatch, db):
    """Run ``bower plot 1`` and return the figure it saved (drawn again on an Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    saved = []
    real = Figure.savefig

    def spy(self, *args, **kwargs):
        saved.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    rc, _, err = bower("plot", "1", "--db", db, "-o", tmp_path / "chart.png")
    assert rc == 0, err
    [fig] = saved
    FigureCanvasAgg(fig).draw()
    return fig


@pytest.mark.parametrize("seed", [1, 3, 5, 8])
@pytest.mark.parametrize("names", [["Ann", "Bob", "Cy", "Di"], ["Wilhelmina", "Bartholomew", "Maximilian", "Jo"]],
                         ids=["short", "long"])
def test_the_winner_label_keeps_clear_of_its_star_and_inside_the_plot(tmp_path, monkeypatch, seed, names):
    # Before: the label sat on the star's upper left corner and ran out of the plot over the title.
    fig = _chart(tmp_path, monkeypatch, _library(tmp_path, names, seed))
    renderer = fig.canvas.get_renderer()
    [ax] = fig.axes
    [star] = [ln for ln in ax.lines if ln.get_marker() == "*"]
    [label] = [t for t in ax.texts]
    box = label.get_window_extent(renderer)
    if label.get_bbox_patch() is not None:
        box = type(box).union([box, label.get_bbox_patch().get_window_extent(renderer)])
    marker = star.get_window_extent(renderer)
    gap = 4 * fig.dpi / 72                          # 4 points between them, at least
    assert box.x1 + gap <= marker.x0 or box.y1 + gap <= marker.y0 or box.y0 >= marker.y1 + gap, (box, marker)
    inside = ax.get_window_extent(renderer)
    assert inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1, (box, inside)


def _any_font_has(ch: str) -> bool:
    # Independently of bower: an installed font file (matplotlib's last-resort boxes aside) with the glyph.
    from matplotlib import font_manager as fm, ft2font
    return any(ord(ch) in ft2font.FT2Font(f.fname).get_charmap() for f in fm.fontManager.ttflist
               if not f.name.startswith("Last Resort"))


def test_a_character_the_default_font_lacks_is_drawn_with_an_installed_font_that_has_it():
    from matplotlib import font_manager as fm, ft2font
    from bower_host.plot import chart_fonts

    default = fm.findfont(fm.FontProperties(family=["sans-serif"]))
    # Some character a font here has and the default sans-serif does not (a watch, in STIX, where
    # matplotlib ships it; found, not assumed).
    lacks = sorted(set().union(*(ft2font.FT2Font(f.fname).get_charmap() for f in fm.fontManager.ttflist
                                 if f.weight in (400, "normal") and f.style == "normal"
                                 and not f.name.startswith("Last Resort")))
                   - set(ft2font.FT2Font(default).get_charmap()))
    ch = next(chr(c) for c in lacks if chr(c).isprintable() and not chr(c).isspace())
    families, missing = chart_fonts({"normal": [f"Bob{ch}"]})
    assert not missing and len(families) == 2, (ch, families, missing)
    path = fm.findfont(fm.FontProperties(family=[families[1]]))
    assert ord(ch) in ft2font.FT2Font(path).get_charmap()


def test_names_no_installed_font_has_are_said_in_one_line_and_the_chart_is_still_written(tmp_path):
    # Before: matplotlib drew boxes and warned in many lines of Python text (UserWarning, file and line).
    names = ["ＡＢＣ", "山田", "Cy", "$\\frac$"]
    db = _library(tmp_path, names)
    png = tmp_path / "names.png"
    r = subprocess.run([sys.executable, "-m", "bower_host", "plot", "1", "--db", db, "-o", str(png)],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert r.returncode == 0 and r.stdout == "", r.stderr
    lines = r.stderr.splitlines()
    unknown = [c for c in "ＡＢＣ山田" if not _any_font_has(c)]
    if unknown:
        assert len(lines) == 2 and lines[0].startswith("bower: no installed font has "), lines
        assert all(f"U+{ord(c):04X}" in lines[0] for c in unknown), lines[0]
    else:
        assert len(lines) == 1, lines
    assert lines[-1] == f"wrote {png}" and png.read_bytes().startswith(b"\x89PNG")
