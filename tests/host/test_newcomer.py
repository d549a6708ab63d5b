"""What a newcomer meets first (issue 23): the library's tables in an
80-column terminal, progress on long imports and exports, and where
`bower plot -o` writes. The commands run in-process, with standard output
or standard error on a real pseudo-terminal where a terminal matters.

Each test here failed on the code before issue 23: `bower games` lost its
ID column at 80 columns (and `show`/`stats` cut their key columns to
"…"), import and export printed nothing while they ran, and `plot -o DIR`
wrote DIR.png while saying "wrote DIR".
"""

from __future__ import annotations

import io
import os
import re
import sys
import threading
from contextlib import contextmanager

import pytest

from bower_host import progress
from bower_host.cli import main
from bower_host.db import Library

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


@contextmanager
def terminal(monkeypatch, stream: str, columns: int = 80):
    """``sys.<stream>`` on the slave end of a pty (COLUMNS=``columns``); the
    yielded list gets what the terminal received, escapes removed."""
    master, slave = os.openpty()
    got: list[str] = []
    chunks: list[bytes] = []

    def read():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:             # EIO: the slave end was closed
                break
            if not data:
                break
            chunks.append(data)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    tty = io.open(slave, "w", encoding="utf-8", closefd=False)
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, stream, tty)
    try:
        yield got
    finally:
        tty.flush()
        tty.close()
        os.close(slave)
        reader.join(10)
        os.close(master)
        got.append(ESCAPES.sub("", b"".join(chunks).decode("utf-8", "replace")))


def run(*args):
    return main([str(a) for a in args])


def lines_of(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.splitlines() if ln.strip()]


# ----- tables at 80 columns -----------------------------------------------------------

def test_games_keeps_the_id_column_at_80_columns(filled_db, monkeypatch):
    with Library(filled_db) as lib:
        ids = [g["id"] for g in lib.games()]
    with terminal(monkeypatch, "stdout") as out:
        assert run("games", "--db", filled_db) == 0
    rows = lines_of(out[0])[2:]                        # below the heading and its rule
    assert [int(r.split()[0]) for r in rows] == ids    # every ID, whole, first on its line
    assert all(len(r) <= 80 for r in lines_of(out[0]))
    assert "…" not in out[0]
    # A wide terminal keeps every column, each game on one line.
    with terminal(monkeypatch, "stdout", columns=200) as out:
        assert run("games", "--db", filled_db) == 0
    head, _, *rows = lines_of(out[0])
    assert head.split() == ["ID", "Game", "Date", "Variant", "Mode", "Players", "Result", "Hands"]
    assert [int(r.split()[0]) for r in rows] == ids


@pytest.mark.parametrize("key", [("classic", "cards"), ("five", "cards"), ("callpartner", "cards"),
                                 ("ultimate", "table")])
def test_show_keeps_hand_maker_trump_tricks_and_scores_at_80_columns(filled_db, variant_logs, monkeypatch, key):
    x = variant_logs[key]
    with Library(filled_db) as lib:
        g = lib.find(x.ref)[0]
        hands = lib.hands(g["id"])
    with terminal(monkeypatch, "stdout") as out:
        assert run("show", x.ref, "--db", filled_db) == 0
    text = out[0]
    assert all(len(r) <= 80 for r in lines_of(text)) and "…" not in text
    rows = {int(r.split()[0]): r for r in lines_of(text) if re.match(r"^\s*\d+\s", r)}
    assert sorted(rows) == [h["number"] for h in hands]
    teams = len(g["players"]) == 4 and key[0] in ("classic", "ultimate")
    for h in hands:
        row = rows[h["number"]]
        score = "-".join(str(s) for s in h["scores"][:2]) if teams else " ".join(str(s) for s in h["scores"])
        assert f" {score}" in row, (row, score)
        if h["maker"] is not None:
            assert f" {g['players'][h['maker']]} " in row and f" {h['trump']} " in row, row
        if h["result"] == "scored" and h["outcome"] != "renege":
            assert f" {h['maker_tricks']}/" in row, row


def test_stats_keeps_player_variant_games_wins_and_points_per_hand_at_80_columns(filled_db, monkeypatch):
    from bower_host.gamesview import _title
    from bower_host.stats import compute_stats
    with Library(filled_db) as lib:
        stats = compute_stats(lib)
    with terminal(monkeypatch, "stdout") as out:
        assert run("stats", "--db", filled_db) == 0
    text = out[0]
    assert all(len(r) <= 80 for r in lines_of(text)) and "…" not in text
    rows = lines_of(text)[2:]
    assert len(rows) == len(stats)
    for row, st in zip(rows, stats):
        assert row.startswith(f"{st['player']} ") and f" {_title(st['variant'])} " in row, row
        assert re.search(rf"\s{st['games']}\s+{st['wins']}\s.*\s{st['points_per_hand']:.2f}(\s|$)", row), row


# ----- progress -----------------------------------------------------------------------

@pytest.fixture
def log_files(tmp_path, kit):
    files = []
    for i in range(6):
        g = kit.table_game(kit.VARIANTS[i % 4], 300 + i)
        f = tmp_path / "logs" / f"p{i}.log"
        f.parent.mkdir(exist_ok=True)
        f.write_bytes(kit.log_bytes(g, f"p{i}"))
        files.append(f)
    return files


def test_import_shows_progress_on_a_terminal_only_and_keeps_stdout_clean(tmp_path, log_files, monkeypatch,
                                                                          capsys, bower):
    monkeypatch.setattr(progress, "AFTER", 0.0)          # as if each file took long
    capsys.readouterr()
    with terminal(monkeypatch, "stderr") as err:
        assert run("import", "--db", tmp_path / "lib.sqlite3", *log_files) == 0
    out = capsys.readouterr().out
    assert "importing" in err[0] and f"/{len(log_files)}" in err[0]
    # Standard output (a pipe here) has one line per file and nothing else.
    assert [ln.split(":")[0] for ln in out.splitlines()] == [str(f) for f in log_files]
    assert all(": new " in ln for ln in out.splitlines())
    # Standard error not a terminal: no bar, however long it takes.
    rc, out, err = bower("import", "--db", tmp_path / "other.sqlite3", *log_files)
    assert rc == 0 and err == "" and len(out.splitlines()) == len(log_files)
    # A terminal, but a quick run: no bar either.
    monkeypatch.setattr(progress, "AFTER", 3600.0)
    with terminal(monkeypatch, "stderr") as err:
        assert run("import", "--db", tmp_path / "third.sqlite3", *log_files) == 0
    assert err[0] == ""


def test_one_file_of_many_games_shows_progress_by_game(tmp_path, log_files, monkeypatch, bower):
    db = tmp_path / "lib.sqlite3"
    assert bower("import", "--db", db, *log_files)[0] == 0
    rc, out, _ = bower("export", "-f", "json", "--db", db, "-o", tmp_path / "all.json")
    assert rc == 0
    monkeypatch.setattr(progress, "AFTER", 0.0)
    with terminal(monkeypatch, "stderr") as err:
        assert run("import", "--db", tmp_path / "again.sqlite3", tmp_path / "all.json") == 0
    assert "all.json: checking" in err[0] and f"/{len(log_files)}" in err[0]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_shows_progress_on_a_terminal_and_keeps_stdout_clean(tmp_path, log_files, monkeypatch, capsys,
                                                                    bower, fmt):
    db = tmp_path / "lib.sqlite3"
    assert bower("import", "--db", db, *log_files)[0] == 0
    rc, plain, _ = bower("export", "-f", fmt, "--db", db)
    monkeypatch.setattr(progress, "AFTER", 0.0)
    capsys.readouterr()
    with terminal(monkeypatch, "stderr") as err:
        assert run("export", "-f", fmt, "--db", db) == 0
    assert "exporting" in err[0] and f"/{len(log_files)}" in err[0]
    assert capsys.readouterr().out == plain          # byte for byte what a run without a terminal writes
    rc, again, err = bower("export", "-f", fmt, "--db", db)
    assert rc == 0 and again == plain and err == ""  # no terminal: no bar


# ----- plot -o ------------------------------------------------------------------------

def test_plot_into_an_existing_directory_writes_inside_it_and_says_where(bower, filled_db, variant_logs,
                                                                         tmp_path):
    x = variant_logs[("classic", "cards")]
    with Library(filled_db) as lib:
        gid = lib.find(x.ref)[0]["id"]
    charts = tmp_path / "charts"
    charts.mkdir()
    rc, _, err = bower("plot", x.ref, "-o", charts, "--db", filled_db)
    assert rc == 0
    assert err == f"wrote {charts / f'bower-{gid}.png'}\n"
    assert (charts / f"bower-{gid}.png").read_bytes()[:4] == b"\x89PNG"
    assert not (tmp_path / "charts.png").exists()


def test_plot_names_the_file_it_really_wrote(bower, filled_db, variant_logs, tmp_path):
    x = variant_logs[("five", "table")]
    rc, _, err = bower("plot", x.ref, "-o", tmp_path / "chart", "--db", filled_db)
    assert rc == 0 and err == f"wrote {tmp_path / 'chart.png'}\n"
    assert (tmp_path / "chart.png").is_file() and not (tmp_path / "chart").exists()
    rc, _, err = bower("plot", x.ref, "-o", f"{tmp_path / 'nowhere'}{os.sep}", "--db", filled_db)
    assert rc == 1 and err.count("\n") == 1 and "no directory" in err and "Traceback" not in err
    assert not (tmp_path / "nowhere").exists() and not (tmp_path / "nowhere.png").exists()
