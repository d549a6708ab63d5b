"""Every CSV bower writes, fed hostile player names.

The CSV outputs are found in the source (``find_csv_sites``): a function
that uses ``bower_host.csvout`` or the ``csv`` module, calls a ``to_csv``, or
holds a string mentioning CSV, and a ``.csv`` page address. Each must be in
``SITES``, naming the output it belongs to, and every output there is run
below with names that start like spreadsheet formulas (``=1+2``,
``@SUM(A1)``, ``+cmd|' /C calc'!A0``, tabs, carriage returns), with quotes,
commas, pipes, line breaks and non-ASCII text. Each output must parse back
with the csv module, hold every name (a ``'`` in front when it starts like a
formula), and no cell may start like a formula. A CSV output added without a
case here fails ``test_every_csv_output_is_found_and_covered``.
"""

from __future__ import annotations

import ast
import asyncio
import csv
import io
import json
import re
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host import csvout
from bower_host.club import night as cn
from bower_host.club import attach as ca
from bower_host.club import roundlog as rl
from bower_host.club.simulate import bot_round
from bower_host.club.web import make_app
from bower_host.db import Library
from bower_host.names import DEVICE_NAME

from conftest import DEVICE, log_bytes, table_game

import bower_host

HOST = Path(bower_host.__file__).resolve().parent       # the package as imported

#: Every place in the source that writes or offers CSV: ``(module, top-level
#: function)`` -> the output it belongs to (a key of ``OUTPUTS``).
SITES = {
    ("csvout.py", "<module>"): "the writer",
    ("csvout.py", "dumps"): "the writer",
    ("csvout.py", "dumps_dicts"): "the writer",
    ("export.py", "<module>"): "bower export",                      # the --format choices
    ("commands/library.py", "cmd_export"): "bower export",
    ("stats.py", "<module>"): "bower stats",                        # the --format choices
    ("commands/library.py", "cmd_stats"): "bower stats",
    ("commands/library.py", "<module>"): "bower export / bower stats",       # (imports csvout)
    ("commands/library.py", "register"): "bower export / bower stats",       # their --help
    ("club/standings.py", "<module>"): "club standings / page",
    ("club/standings.py", "to_csv"): "club standings / page",
    ("commands/club.py", "cmd_standings"): "bower club standings",
    ("commands/club.py", "register"): "bower club standings",
    ("club/pages.py", "render"): "/standings.csv",
    ("club/web.py", "make_app"): "/standings.csv",
    ("league/standings.py", "<module>"): "bower league standings",
    ("league/standings.py", "to_csv"): "bower league standings",
    ("commands/league.py", "cmd_standings"): "bower league standings",
    ("commands/league.py", "register"): "bower league standings",
}
#: The addresses of the club page that serve CSV.
PAGE_CSV = {"/standings.csv"}
#: Outputs that only lead to others (run through them).
VIA = {"the writer": ["bower export", "bower stats", "bower club standings", "/standings.csv"],
       "bower export / bower stats": ["bower export", "bower stats"],
       "club standings / page": ["bower club standings", "/standings.csv"]}

#: What no text cell may start with (csvout.FORMULA_START, stated here again).
TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
#: A number as Python writes it (a spreadsheet reads "-2" as the number -2).
NUMBER = re.compile(r"-?\d+(\.\d+)?(e[-+]?\d+)?\Z")


def runs(cell: str) -> bool:
    """Would a spreadsheet take this cell for a formula?"""
    return cell.startswith(TRIGGERS) and not NUMBER.match(cell)


# ----- finding every CSV output ---------------------------------------------------------------

def _csv_mentions(node, top: str, docs: set, found: list) -> None:
    # ``(top-level function, kind, text)`` for every CSV mention under ``node``.
    for ch in ast.iter_child_nodes(node):
        t = ch.name if top == "<module>" and isinstance(
            ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else top
        if isinstance(ch, ast.Constant) and isinstance(ch.value, str) and id(ch) not in docs \
                and "csv" in ch.value.lower():
            found.append((t, "text", ch.value))
        elif isinstance(ch, ast.Name) and ch.id in ("csv", "csvout"):
            found.append((t, "name", ch.id))
        elif isinstance(ch, ast.Attribute) and ch.attr in ("to_csv", "csvout"):
            found.append((t, "name", ch.attr))
        elif isinstance(ch, (ast.Import, ast.ImportFrom)):
            for m in [a.name for a in ch.names] + [getattr(ch, "module", None) or ""]:
                if "csv" in m:
                    found.append((t, "import", m))
        _csv_mentions(ch, t, docs, found)


def find_csv_sites() -> tuple[set, set, list]:
    """``(sites, page addresses, csv module users)`` in the host package."""
    sites, pages, users = set(), set(), []
    for f in sorted(HOST.rglob("*.py")):
        rel = f.relative_to(HOST).as_posix()
        tree = ast.parse(f.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        found: list = []
        _csv_mentions(tree, "<module>", docs, found)
        for top, kind, text in found:
            sites.add((rel, top))
            if kind == "text" and text.startswith("/") and text.endswith(".csv"):
                pages.add(text)
            if kind == "import" and (text == "csv" or text.startswith("csv.")):
                users.append(rel)
    return sites, pages, users


def test_every_csv_output_is_found_and_covered():
    sites, pages, users = find_csv_sites()
    new = sorted(sites - set(SITES))
    assert not new, (f"CSV written or offered at {new}: write it through bower_host.csvout and add it to "
                     "SITES and OUTPUTS in this test, with a hostile-name case")
    assert not sorted(set(SITES) - sites), "SITES lists places that no longer write CSV: remove them"
    assert pages == PAGE_CSV, f"club page CSV addresses {sorted(pages)}: each needs a case in OUTPUTS"
    assert set(users) == {"csvout.py"}, f"the csv module used by {users}: write CSV through bower_host.csvout"
    covered = set()
    for out in SITES.values():
        covered.update(VIA.get(out, [out]))
    assert covered == set(OUTPUTS), (covered, set(OUTPUTS))


# ----- hostile names ----------------------------------------------------------------------------

PAYLOADS = ["=1+2", "@SUM(A1)", "+cmd|' /C calc'!A0", "-2+3", "=HYPERLINK(\"http://x\",\"y\")", "\t=1", "\r=1",
            "a,b", "\"q\"", "x|y", "line\nbreak", "cr\rhere", "\u00fcn\u00ef", "\u202eevil", "'=1",
            "\uff1d1+1", " =1", "=", "-", "@"]
NAME = st.one_of(
    st.sampled_from(PAYLOADS),
    st.tuples(st.sampled_from(list(TRIGGERS) + ["", "|", '"', ",", "'", " "]),
              st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)).map("".join))
#: Names a device (and so a club night) takes: printable ASCII, formulas included.
DEVICE_NAMES = st.one_of(
    st.sampled_from(["=1+2", "@SUM(A1", "+cmd|'", "-2+3", "\"a,b\"", "a,b", "x|y", "=", "@", "-", "'=1", "+"]),
    st.text(st.sampled_from([chr(c) for c in range(32, 127)]), min_size=1, max_size=8)).filter(DEVICE_NAME.match)


def _library_with(path: Path, names: list[str]) -> None:
    """A library holding one finished Classic game of ``names``: through the
    log when the library's gate takes them (``db.names_problem``), else
    written into the library file (a hostile one)."""
    from bower_host.db import names_problem
    ok = names if names_problem(names) is None else [f"P{i}" for i in range(len(names))]
    with Library(path) as lib:
        assert lib.add_log(log_bytes(table_game("classic", 5, names=ok), "g0001"), DEVICE, "g0001.log").status \
            == "new"
        if ok != names:
            with lib.conn:
                lib.conn.execute("UPDATE games SET players = ?", (json.dumps(names),))
                lib.conn.executemany("UPDATE players SET name = ? WHERE seat = ?", [(n, s) for s, n in
                                                                                     enumerate(names)])


def _night_with(path: Path, names: list[str]) -> None:
    """A club night of one table, its round played and counted."""
    with Library(path) as lib:
        night = cn.create_night(lib, "Friday", names, 1, "fixed", 1, hands=2, key="fri")
        seats = [night.name_of(p) for p in night.seating(1).tables[0]]
        raw = bot_round(rl.round_header("fri", 1, 1, 2, None, night.scoring), seats, 3, "table01", "fri-r1")
        ca.attach_file(lib, raw, "r1-t1.log")


def _cli(*argv) -> str:
    import contextlib

    from bower_host.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([str(a) for a in argv]) == 0
    return out.getvalue()


def _get(app, path: str) -> tuple[int, bytes]:
    # One GET through the app's ASGI interface, as a browser's request would arrive.
    sent: list = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": [],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def _league_csv(d: Path, names: list[str]) -> str:
    """A night of ``names`` pushed by a club whose name is a formula; the league's standings as CSV."""
    _night_with(d / "c.sqlite3", names)
    spec = d / "league.sqlite3"
    _cli("league", "new", "L", "--db", spec)
    _cli("league", "club", "add", "=1+1", "--db", spec)
    _cli("league", "push", d / "c.sqlite3", "--db", spec)
    return _cli("league", "standings", "--db", spec, "--format", "csv")


def _page_csv(db: Path) -> str:
    status, body = _get(make_app(db, "fri"), "/standings.csv")
    assert status == 200
    return body.decode("utf-8")


#: Each CSV output: ``(kind of names it can hold, run(directory, names) -> CSV text, column of the names)``.
OUTPUTS = {
    "bower export": (NAME, lambda d, n: (_library_with(d / "x.sqlite3", n),
                                         _cli("export", "--db", d / "x.sqlite3", "-f", "csv"))[1],
                     [f"seat{s}_name" for s in range(4)]),
    "bower stats": (NAME, lambda d, n: (_library_with(d / "x.sqlite3", n),
                                        _cli("stats", "--db", d / "x.sqlite3", "--format", "csv"))[1], ["player"]),
    "bower club standings": (DEVICE_NAMES, lambda d, n: (_night_with(d / "c.sqlite3", n),
                                                         _cli("club", "standings", "--db", d / "c.sqlite3",
                                                              "-f", "csv"))[1], ["player"]),
    "bower league standings": (DEVICE_NAMES, _league_csv, ["player"]),
    "/standings.csv": (DEVICE_NAMES, lambda d, n: (_night_with(d / "c.sqlite3", n), _page_csv(d / "c.sqlite3"))[1],
                       ["player"]),
}


def _shown(name: str) -> str:
    """How a name must read in a CSV cell."""
    return "'" + name if name.startswith(TRIGGERS) else name


def _check(text: str, names: list[str], columns: list[str]) -> None:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows and all(len(r) == len(rows[0]) for r in rows), "every row as wide as the header"
    bad = [c for r in rows for c in r if runs(c)]
    assert not bad, f"cells a spreadsheet would run: {bad}"
    head = rows[0]
    got = {r[head.index(c)] for r in rows[1:] for c in columns}
    assert {_shown(n) for n in names} <= got, (names, got)


def _case(output: str):
    names_st, run, columns = OUTPUTS[output]

    @settings(max_examples=12, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(names=st.lists(names_st, min_size=4, max_size=4, unique=True))
    def check(names):
        with tempfile.TemporaryDirectory() as tmp:
            _check(run(Path(tmp), names), names, columns)
    check()


def test_export_csv_defuses_hostile_names():
    _case("bower export")


def test_stats_csv_defuses_hostile_names():
    _case("bower stats")


def test_club_standings_csv_defuses_hostile_names():
    _case("bower club standings")


def test_the_club_page_standings_csv_defuses_hostile_names():
    _case("/standings.csv")


# ----- the writer itself ----------------------------------------------------------------------

@settings(max_examples=200, deadline=None, derandomize=True)
@given(rows=st.lists(st.lists(st.one_of(NAME, st.integers(-10 ** 6, 10 ** 6),
                                        st.floats(allow_nan=False, allow_infinity=False)),
                              min_size=3, max_size=3), max_size=5))
def test_the_writer_round_trips_any_text_and_keeps_numbers(rows):
    text = csvout.dumps(["a", "b", "c"], rows)
    back = list(csv.reader(io.StringIO(text, newline="")))
    assert back[0] == ["a", "b", "c"] and len(back) == len(rows) + 1
    for want, got in zip(rows, back[1:]):
        assert got == [_shown(v) if isinstance(v, str) else str(v) for v in want]
    assert not [c for r in back for c in r if runs(c)]


def test_a_negative_score_stays_a_number_and_formula_text_is_quoted_once():
    assert csvout.dumps(["n", "x"], [[-2, "-2"], [3, "'=1"]]) == "n,x\n-2,'-2\n3,'=1\n"
    assert csvout.dumps_dicts(["a", "b"], [{"a": "@x"}]) == "a,b\n'@x,\n"


def test_roster_and_club_names_follow_the_device_rule():
    # bower.check_names: 1 to 8 printable ASCII, no space first or last, each once.
    from bower import check_names

    from bower_host.cli import CommandError
    from bower_host.commands.sync import validate_names      # bower roster push, before anything is sent

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(names=st.lists(st.one_of(st.text(st.sampled_from([chr(c) for c in range(32, 127)]), max_size=9),
                                    st.sampled_from([" Ann", "Ann ", " ", "Ann", "=1+2", "a\tb", "\u00e9"]),
                                    st.text(st.sampled_from([chr(c) for c in range(0, 130)]), max_size=10)),
                          max_size=17))
    def same(names):
        try:
            check_names(list(names))
            device = True
        except ValueError:
            device = False
        try:
            validate_names(names)
            host = True
        except CommandError:
            host = False
        assert host == device, names
        try:
            cn.check_names(names)           # a night's players: any number, each a device name
            club_ok = True
        except cn.ClubError:
            club_ok = False
        assert device == (club_ok and len(names) <= 16), names
    same()


def test_stats_csv_sample(tmp_path):
    # What a spreadsheet user gets: the names as typed, shown as text.
    _library_with(tmp_path / "x.sqlite3", ["=1+2", "@SUM(A1)", "+cmd|' /C calc'!A0", "Di"])
    text = _cli("stats", "--db", tmp_path / "x.sqlite3", "--format", "csv")
    players = [r[0] for r in csv.reader(io.StringIO(text))][1:]
    assert sorted(players) == sorted(["'=1+2", "'@SUM(A1)", "'+cmd|' /C calc'!A0", "Di"])
    with sqlite3.connect(tmp_path / "x.sqlite3") as c:                   # the library keeps the names as they are
        assert json.loads(c.execute("SELECT players FROM games").fetchone()[0])[0] == "=1+2"


def test_league_standings_csv_defuses_hostile_names():
    _case("bower league standings")
