"""``bower rules check FILE`` (issue 36 point 3): a rules file of presets is
checked with the engine's own rules; every problem is a line of its own on
standard output naming the preset and the rule broken, then one line on
standard error, ``bower: FILE has N problems`` (status 1). A file that is
no rules file at all is one line on standard error. Nothing is written.
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.rulesdoc import accepted
from euchre import Rules
from euchre.rules import OPTIONS

from hostile import bower, refused, tree

GOOD = {"bower_rules": 1, "presets": [
    {"name": "Friday rules", "variant": "classic",
     "options": {"std": True, "canadian": True, "loner_lead": "LEFT_OF_LONER", "farmers": True,
                 "farmers_no_call": True, "misdeal_passes": True},
     "target": 10, "quick": False},
    {"name": "Five", "variant": "five", "options": {"jokers": True, "alternate_ending": True}, "target": 11},
    {"name": "CYP", "variant": "callpartner", "options": {"play_on": True}, "quick": True},
    {"name": "54 cards", "variant": "ultimate", "target": 50},
    {"name": "Cutthroat", "variant": "three", "options": {"min_rank": 7, "march": 2, "alone": True, "std": True,
                                                          "play_on": True}},
    {"name": "Six of us", "variant": "six", "options": {"jokers": True, "winning_score": 15}},
    {"name": "Keller 1887", "variant": "two", "options": {"min_rank": 9, "joker": True}, "target": 5},
]}


def _file(tmp_path: Path, doc, name: str = "rules.json") -> Path:
    f = tmp_path / name
    f.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return f


def _preset(**kw) -> dict:
    p = {"name": "Friday rules", "variant": "classic"}
    p.update(kw)
    return {k: v for k, v in p.items() if v is not ...}


def test_a_good_file_of_every_variant_is_all_playable(tmp_path):
    assert {p["variant"] for p in GOOD["presets"]} == {"classic", "five", "callpartner", "ultimate", "three",
                                                      "six", "two"}
    f = _file(tmp_path, GOOD)
    rc, out, err = bower("rules", "check", f)
    assert (rc, out, err) == (0, f"{f}: 7 presets, all playable\n", "")
    # Each is a setup the engine plays: the options, the target as winning_score.
    for p in GOOD["presets"]:
        opts = dict(p.get("options", {}))
        if "target" in p:
            opts["winning_score"] = p["target"]
        assert Rules(p["variant"], opts).winning_score == opts.get("winning_score", Rules(p["variant"]).winning_score)
    one = _file(tmp_path, {"bower_rules": 1, "presets": [{"name": "x", "variant": "two"}]}, "one.json")
    assert bower("rules", "check", one)[1] == f"{one}: 1 preset, all playable\n"
    assert tree(tmp_path) == ["one.json", "rules.json"]


FIVE = "alternate_ending, four_eights, jokers, misdeal_passes, winning_score"
CLASSIC = ", ".join(sorted(accepted("classic")))

# (the presets, the lines expected on stdout)
BAD = [
    pytest.param([_preset(variant="five", options={"joker": True})],
                 [f"preset 'Friday rules': Five-Handed Euchre has no option 'joker' (its options: {FIVE})"],
                 id="no-such-option"),
    pytest.param([_preset(target=0)],
                 ["preset 'Friday rules': target 0: winning_score must be a whole number from 1 to 99, not 0"],
                 id="target-0"),
    pytest.param([_preset(options={"winning_score": 100})],
                 ["preset 'Friday rules': winning_score must be a whole number from 1 to 99, not 100"],
                 id="winning-score-100"),
    pytest.param([_preset(target=True)],
                 ["preset 'Friday rules': target true: winning_score must be a whole number from 1 to 99, not True"],
                 id="target-true"),
    pytest.param([_preset(target=10.0)],
                 ["preset 'Friday rules': target 10.0: winning_score must be a whole number from 1 to 99, not 10.0"],
                 id="target-float"),
    pytest.param([_preset(target=10, options={"winning_score": 10})],
                 ["preset 'Friday rules': target and options' winning_score are one setting (the points to win): "
                  "give it once"], id="target-twice"),
    pytest.param([_preset(variant="three", options={"min_rank": 8})],
                 ["preset 'Friday rules': min_rank must be one of (9, 7), not 8"], id="min-rank-8"),
    pytest.param([_preset(variant="three", options={"min_rank": 9.0})],
                 ["preset 'Friday rules': min_rank must be one of (9, 7), not 9.0"], id="min-rank-float"),
    pytest.param([_preset(options={"std": 1, "loner_lead": "LEFT"})],
                 ["preset 'Friday rules': std must be one of (False, True), not 1",
                  "preset 'Friday rules': loner_lead must be one of ('LEFT_OF_DEALER', 'LEFT_OF_LONER'), not 'LEFT'"],
                 id="values"),
    pytest.param([_preset(options={"farmers_nines_only": True})],
                 ["preset 'Friday rules': farmers_nines_only and farmers_no_call require farmers"], id="farmers"),
    pytest.param([_preset(options={"stick_the_dealer": True})],
                 ["preset 'Friday rules': stick_the_dealer is option std by its name in full: write std"],
                 id="long-name"),
    pytest.param([_preset(options={"round_hands": 8})],
                 ["preset 'Friday rules': round_hands is a club round's setting (bower club push sends it), "
                  "not a preset's"], id="club-option"),
    pytest.param([_preset(options=["std"])],
                 ["preset 'Friday rules': options must be an object of option names to values, not [\"std\"]"],
                 id="options-list"),
    pytest.param([_preset(variant="pinochle")],
                 ["preset 'Friday rules': unknown variant \"pinochle\" (one of: classic, five, callpartner, ultimate, "
                  "three, six, two)"], id="unknown-variant"),
    pytest.param([_preset(variant="5-handed")],
                 ["preset 'Friday rules': variant '5-handed' is 'five' by another name: write 'five'"], id="alias"),
    pytest.param([_preset(variant=...)],
                 ["preset 'Friday rules': it has no variant (one of: classic, five, callpartner, ultimate, three, "
                  "six, two)"], id="no-variant"),
    pytest.param([_preset(quick="yes")],
                 ["preset 'Friday rules': quick (quick score) must be true or false, not \"yes\""], id="quick"),
    pytest.param([_preset(colour="red", Name="x")],
                 ["preset 'Friday rules': unknown key 'colour' (a preset has: name, variant, options, target, quick)",
                  "preset 'Friday rules': unknown key 'Name' (a preset has: name, variant, options, target, quick)"],
                 id="unknown-keys"),
    pytest.param([_preset(), _preset(variant="two"), _preset(name="Other"), _preset(variant="six")],
                 ["preset 2 'Friday rules': preset 1 has this name: each preset a name of its own",
                  "preset 4 'Friday rules': preset 1 has this name: each preset a name of its own"],
                 id="duplicate-names"),
    pytest.param([_preset(name="Friday night rules")],
                 ["preset 1: its name 'Friday night rules' is 18 characters: the device shows a name of 1 to 12 "
                  "printable ASCII characters"], id="name-long"),
    pytest.param([_preset(name="")],
                 ["preset 1: its name '' is 0 characters: the device shows a name of 1 to 12 printable ASCII "
                  "characters"], id="name-empty"),
    pytest.param([_preset(name="Caf\u00e9")],
                 ["preset 1: its name 'Café' has 'é', which the device cannot show: the device shows a name of 1 to "
                  "12 printable ASCII characters"], id="name-accent"),
    pytest.param([_preset(name="a\x1b[2Jb")],
                 ["preset 1: its name 'a\\x1b[2Jb' has '\\x1b', which the device cannot show: the device shows a "
                  "name of 1 to 12 printable ASCII characters"], id="name-escape"),
    pytest.param([_preset(name="   ")],
                 ["preset 1: its name is only spaces: the device shows a name of 1 to 12 printable ASCII "
                  "characters"], id="name-spaces"),
    pytest.param([_preset(name=7)], ["preset 1: its name must be text, not 7"], id="name-number"),
    pytest.param([_preset(name=...)], ["preset 1: it has no name"], id="no-name"),
    pytest.param([[], "classic", None],
                 ['preset 1 is not an object ({"name": ..., "variant": ...}) but []',
                  'preset 2 is not an object ({"name": ..., "variant": ...}) but "classic"',
                  'preset 3 is not an object ({"name": ..., "variant": ...}) but null'], id="not-objects"),
    pytest.param([_preset(variant="five", options={"joker": True, "jokers": "yes"}, target=0, quick=0)],
                 [f"preset 'Friday rules': Five-Handed Euchre has no option 'joker' (its options: {FIVE})",
                  "preset 'Friday rules': jokers must be one of (False, True), not 'yes'",
                  "preset 'Friday rules': target 0: winning_score must be a whole number from 1 to 99, not 0",
                  "preset 'Friday rules': quick (quick score) must be true or false, not 0"], id="every-problem"),
]


@pytest.mark.parametrize("presets, lines", BAD)
def test_a_bad_preset_is_told_in_one_line_a_problem(tmp_path, presets, lines):
    f = _file(tmp_path, {"bower_rules": 1, "presets": presets})
    rc, out, err = bower("rules", "check", f)
    n = len(lines)
    assert (rc, out.splitlines(), err) == (1, lines, f"bower: {f} has {n} problem{'' if n == 1 else 's'}\n")
    assert tree(tmp_path) == ["rules.json"]


@pytest.mark.parametrize("doc, lines", [
    ({"bower_rules": 1, "presets": [_preset()], "author": "me"},
     ["unknown key 'author' (a rules file has: bower_rules, presets)"]),
    ({"bower_rules": 1}, ["it has no presets (a list of presets)"]),
    ({"bower_rules": 1, "presets": []}, ["presets must be a list of one preset or more, not []"]),
    ({"bower_rules": 1, "presets": {"name": "x"}}, ['presets must be a list of one preset or more, not {"name": "x"}']),
], ids=["unknown-key", "no-presets", "empty-presets", "presets-object"])
def test_a_bad_file_is_told_its_every_problem(tmp_path, doc, lines):
    f = _file(tmp_path, doc)
    rc, out, err = bower("rules", "check", f)
    assert (rc, out.splitlines(), err) == (1, lines, f"bower: {f} has 1 problem\n")


@pytest.mark.parametrize("text, says", [
    ('{"bower_rules": 2, "presets": []}', "the file is format 2, from a newer Bower (this one reads format 1): "
                                          "upgrade bower"),
    ('{"bower_rules": "1", "presets": []}', 'bower_rules (the format) must be 1, not "1"'),
    ('{"bower_rules": true, "presets": []}', "bower_rules (the format) must be 1, not true"),
    ('{"bower_rules": 1.0, "presets": []}', "bower_rules (the format) must be 1, not 1.0"),
    ('{"bower_rules": 0}', "bower_rules (the format) must be 1, not 0"),
    ('{"presets": []}', "it is not a Bower rules file: it has no bower_rules (the format, 1)"),
    ("[1, 2]", "it is not a Bower rules file (a JSON object with bower_rules and presets), but [1, 2]"),
    ('{"bower_rules": 1,', "not valid JSON at line 1, column 19 (the text ends early)"),
    ("[" * 50 + "]" * 50, "JSON nested deeper than 8 levels"),
    ("\ufeff{}", "not valid JSON at line 1, column 1"),
], ids=["format-2", "format-text", "format-true", "format-float", "format-0", "no-format", "a-list", "cut-short",
        "deep", "bom"])
def test_a_file_that_is_no_rules_file_is_one_line(tmp_path, text, says):
    f = _file(tmp_path, text)
    rc, line = refused("rules", "check", f)
    assert rc == 1 and line.startswith(f"bower: {f}: ") and says in line, line


def test_a_file_that_cannot_be_read_is_one_line(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate((1 << 20) + 1)
    rc, line = refused("rules", "check", big)
    assert rc == 1 and "more than the 1.0 MB bower reads" in line, line
    (tmp_path / "bad.json").write_bytes(b'{"bower_rules": 1, "presets": [{"name": "\xff"}]}')
    rc, line = refused("rules", "check", tmp_path / "bad.json")
    assert rc == 1 and "is not UTF-8 text (byte 0xff at offset 41)" in line, line
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    rc, line = refused("rules", "check", fifo)
    assert rc == 1 and "is a FIFO (a named pipe), not a file" in line
    for what in (tmp_path, tmp_path / "none.json", "/dev/zero"):
        rc, line = refused("rules", "check", what)
        assert rc == 1, line


# ----- anything at all --------------------------------------------------------------------

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-200, 200), st.floats(allow_nan=True),
                    st.text(max_size=20), st.sampled_from(["LEFT_OF_DEALER", "LEFT_OF_LONER", "classic", "five",
                                                           "three", "5-handed", "round_hands"]))
JSONISH = st.recursive(SCALARS, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), kids, max_size=4)),
                       max_leaves=12)
KEYS = st.sampled_from(sorted(set(OPTIONS) | {"stick_the_dealer", "round_hands", "set_loner", "x"}))
VALUES = st.one_of(st.sampled_from([True, False, 0, 1, 2, 3, 7, 8, 9, 10, 99, 100, 9.0, "LEFT_OF_LONER", None]),
                   JSONISH)
PRESET = st.fixed_dictionaries(
    {}, optional={"name": st.one_of(st.text(max_size=14), JSONISH),
                  "variant": st.one_of(st.sampled_from(["classic", "five", "callpartner", "ultimate", "three", "six",
                                                        "two", "cyp", "Classic"]), JSONISH),
                  "options": st.one_of(st.dictionaries(KEYS, VALUES, max_size=5), JSONISH),
                  "target": VALUES, "quick": VALUES, "extra": JSONISH})
DOC = st.one_of(
    st.fixed_dictionaries({"bower_rules": st.one_of(st.just(1), VALUES),
                           "presets": st.one_of(st.lists(st.one_of(PRESET, JSONISH), max_size=5), JSONISH)},
                          optional={"more": JSONISH}),
    st.builds(lambda p: copy.deepcopy(GOOD) | {"presets": GOOD["presets"] + [p]}, PRESET),
    JSONISH)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=DOC, raw=st.booleans())
def test_any_file_is_judged_in_lines_and_nothing_is_written(doc, raw):
    with tempfile.TemporaryDirectory() as d:
        text = json.dumps(doc, allow_nan=True)
        if raw:       # as bytes, some of them not UTF-8 or not JSON
            text = text[: len(text) // 2]
        f = _file(Path(d), text)
        rc, out, err = bower("rules", "check", f)
        assert rc in (0, 1)
        if rc == 0:
            assert out == f"{f}: {len(doc['presets'])} preset{'' if len(doc['presets']) == 1 else 's'}, " \
                          "all playable\n" and err == ""
            for p in doc["presets"]:     # each one the engine plays
                opts = dict(p.get("options", {}))
                if "target" in p:
                    opts["winning_score"] = p["target"]
                Rules(p["variant"], opts)
        elif out:
            n = len(out.splitlines())
            assert err == f"bower: {f} has {n} problem{'' if n == 1 else 's'}\n"
            assert all(ln and ln.isprintable() and len(ln) <= 303 for ln in out.splitlines())
        assert tree(d) == ["rules.json"] and f.read_text(encoding="utf-8") == text
