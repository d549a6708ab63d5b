"""``bower rules preset list/add/remove FILE`` (issue 36 point 2): a group's
presets edited by command. A change is written only when the file it makes
passes ``bower rules check`` (whole, through a temporary file renamed onto
it); every refusal is one line on standard error, exits 1 and leaves the
file as it was, byte for byte.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile import bower, refused, tree


def _doc(f: Path) -> dict:
    return json.loads(f.read_text(encoding="utf-8"))


def test_add_list_replace_remove(tmp_path):
    f = tmp_path / "friday.json"
    rc, out, err = bower("rules", "preset", "add", f, "Friday rules", "--variant", "classic", "--target", "11",
                         "--option", "std", "--option", "loner_lead=LEFT_OF_LONER", "--option", "canadian=on")
    assert (rc, out, err) == (0, f"{f}: preset Friday rules added (1 in all)\n", "")
    assert bower("rules", "preset", "add", f, "Kids", "--variant", "three", "--quick",
                 "--option", "winning_score=7")[0] == 0
    assert bower("rules", "preset", "add", f, "Six", "--variant", "six")[0] == 0
    rc, out, _ = bower("rules", "preset", "list", f)
    assert rc == 0 and out == ("Friday rules: classic, target 11, quick off, canadian on, loner_lead left of loner, "
                               "std on\nKids: three, quick on, winning_score 7\nSix: six, quick off\n"), out
    # What add wrote is a rules file check passes, and the device's push takes.
    assert bower("rules", "check", f) == (0, f"{f}: 3 presets, all playable\n", "")
    assert _doc(f)["presets"][0] == {"name": "Friday rules", "variant": "classic", "target": 11, "quick": False,
                                     "options": {"std": True, "loner_lead": "LEFT_OF_LONER", "canadian": True}}
    # The same name again: replaced where it stands.
    rc, out, _ = bower("rules", "preset", "add", f, "Kids", "--variant", "five", "--option", "jokers")
    assert rc == 0 and out.endswith("preset Kids replaced\n")
    assert [p["name"] for p in _doc(f)["presets"]] == ["Friday rules", "Kids", "Six"]
    assert _doc(f)["presets"][1]["variant"] == "five"
    rc, out, _ = bower("rules", "preset", "remove", f, "Friday rules")
    assert rc == 0 and out == f"{f}: preset Friday rules removed (2 left)\n"
    assert [p["name"] for p in _doc(f)["presets"]] == ["Kids", "Six"]
    assert tree(tmp_path) == ["friday.json"]     # no temporary file left


def test_refusals_leave_the_file_as_it_was(tmp_path):
    f = tmp_path / "friday.json"
    assert bower("rules", "preset", "add", f, "Friday rules", "--variant", "classic")[0] == 0
    before = f.read_bytes()
    cases = [
        (("add", f, "Kids", "--variant", "five", "--option", "joker"), "would have 1 problem: nothing written"),
        (("add", f, "Kids", "--variant", "classic", "--option", "round_hands=4"), "would have 1 problem"),
        (("add", f, "Far too long a name", "--variant", "classic"), "would have 1 problem"),
        (("add", f, "Kids", "--variant", "two", "--target", "100000"), "would have 1 problem"),
        (("remove", f, "Nope"), "no preset named Nope (the file has: Friday rules); nothing written"),
        (("remove", f, "Friday rules"), "the file's only preset"),
        (("remove", tmp_path / "none.json", "Friday rules"), "no such file; nothing written"),
        (("list", tmp_path / "none.json"), ""),
    ]
    for args, says in cases:
        rc, out, err = bower("rules", "preset", *args)
        assert rc == 1 and says in err, (args, err)
        assert f.read_bytes() == before, args
    for i in range(2, 9):
        assert bower("rules", "preset", "add", f, f"P{i}", "--variant", "six")[0] == 0
    eight = f.read_bytes()
    rc, out, err = bower("rules", "preset", "add", f, "P9", "--variant", "six")
    assert rc == 1 and err.endswith("would have 1 problem: nothing written\n"), err
    assert out == "9 presets: a device keeps at most 8 (firmware/bower/presets.py)\n"
    rc, line = refused("rules", "preset", "remove", f, "P9")
    assert rc == 1 and "no preset named P9" in line
    assert f.read_bytes() == eight
    # A file with problems already is refused as it is, its problems told.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"bower_rules": 1, "presets": [{"name": "X", "variant": "nope"}]}))
    rc, out, err = bower("rules", "preset", "add", bad, "Y", "--variant", "classic")
    assert rc == 1 and "unknown variant" in out and "already: fix them first" in err
    assert _doc(bad)["presets"] == [{"name": "X", "variant": "nope"}]
    assert sorted(tree(tmp_path)) == ["bad.json", "friday.json"]


NAMES = st.sampled_from(["Fri", "Sat", "Kids", "", "A" * 13, "Ünï", "x\ty"])
OPTION = st.sampled_from(["std", "canadian", "jokers", "joker", "winning_score=7", "winning_score=0",
                          "loner_lead=LEFT_OF_LONER", "loner_lead=nope", "farmers", "farmers_no_call", "x=1",
                          "lone_euchre_4", "same_dealer"])
STEP = st.one_of(
    st.tuples(st.just("add"), NAMES, st.sampled_from(["classic", "five", "three", "six", "two"]),
              st.lists(OPTION, max_size=3), st.one_of(st.none(), st.integers(-3, 120)), st.booleans()),
    st.tuples(st.just("remove"), NAMES))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEP, min_size=1, max_size=8))
def test_any_edits_keep_a_playable_file_or_nothing(steps):
    # Whatever is added and removed: the file is always one check passes
    # (or absent, before a first add), each refusal changes no byte, and
    # nothing but the file is ever written beside it.
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "rules.json"
        for step in steps:
            before = f.read_bytes() if f.exists() else None
            if step[0] == "add":
                _, name, variant, opts, target, quick = step
                args = ["add", f, name, "--variant", variant]
                for o in opts:
                    args += ["--option", o]
                if target is not None:
                    args += ["--target", str(target)]
                if quick:
                    args.append("--quick")
            else:
                args = ["remove", f, step[1]]
            rc, out, err = bower("rules", "preset", *args)
            assert rc in (0, 1) and "Traceback" not in err
            if rc:
                assert err.startswith("bower: ") and err.count("\n") == 1, err
                assert (f.read_bytes() if f.exists() else None) == before
            assert tree(d) in ([], ["rules.json"])
            if f.exists():
                assert bower("rules", "check", f)[0] == 0
