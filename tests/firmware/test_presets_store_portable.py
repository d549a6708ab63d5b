# portable: runs under MicroPython
# Presets on flash (issue 36, bower.presets), on the interpreter the Pico
# runs: kept in order through a reboot, replaced by name, a ninth refused;
# every entry a rule refuses is one line naming the rule, the good ones
# kept; a damaged, cut short, foreign or newer file is refused as a whole
# and the settings and games stay as they were. Plain asserts, an in-memory
# FakeFS; power cuts and a full flash are test_presets_powercut.py's.

from fakefs import FakeFS
from bower.store import Store
from bower import presets
from euchre import Game, Rules
from euchre.logline import encode_line
from euchre.rules import OPTIONS, VARIANTS, LATER, variant_names

P = "/presets"
FRIDAY = {"name": "Friday rules", "variant": "classic", "options": {"std": True, "canadian": True},
          "target": 11, "quick": False}
KIDS = {"name": "Kids", "variant": "three", "options": {"winning_score": 7}, "quick": True}
ULT = {"name": "Big", "variant": "ultimate", "options": {}, "quick": False}


def raises(fn, *args):
    try:
        fn(*args)
    except ValueError as e:
        return e.args[0]
    raise AssertionError("no ValueError")


def device():
    # A device that has played: settings, roster, a game.
    fs = FakeFS()
    s = Store("/", fs=fs)
    s.save_settings({"brightness": 9, "quick": 1})
    s.set_roster(["Ann", "Bob"])
    g = Game(Rules("classic"), dealer=0)
    s.new_game(g)
    g.apply("up H")
    s.record(g, "up H")
    return fs, s


def others(fs):
    # Every file but the presets', byte for byte.
    out = {}
    for k in fs.files:
        if k != P:
            out[k] = bytes(fs.files[k])
    return out


def but_name(p):
    d = dict(p)
    del d["name"]
    return d


def test_round_trip_in_order_through_a_reboot():
    fs, s = device()
    before = others(fs)
    assert presets.load(s) == ([], [])     # no file: none
    assert presets.save(s, [KIDS, FRIDAY, ULT]) == [KIDS, FRIDAY, ULT]
    s = Store("/", fs=fs.reboot())
    assert presets.load(s) == ([KIDS, FRIDAY, ULT], [])
    assert others(fs) == before and s.warnings == []
    assert s.settings["brightness"] == 9 and s.roster == ["Ann", "Bob"] and s.resume()[0].hand.events
    # A preset's setup is what a game starts from: Rules', and the quick setting.
    v, o, q = presets.setup(presets.load(s)[0][1])
    r = Rules(v, o)
    assert (r.name, r.canadian, r.std, r.winning_score, q) == ("classic", True, True, 11, 0)
    v, o, q = presets.setup(KIDS)
    assert (Rules(v, o).winning_score, q) == (7, 1)
    assert presets.setup(ULT) == ("ultimate", {}, 0)


def test_options_and_quick_may_be_left_out():
    fs, s = device()
    assert presets.add(s, "Plain", {"variant": "five"}) == [
        {"name": "Plain", "variant": "five", "options": {}, "quick": False}]


def test_a_variants_own_later_options_are_kept():
    # (Rules.later: Three-Handed's raise_target, Classic's no_late_loners)
    fs, s = device()
    tie = {"name": "Tie", "variant": "three", "options": {"raise_target": True}, "quick": False}
    late = {"name": "League", "variant": "classic", "options": {"no_late_loners": True, "std": True},
            "quick": False}
    assert presets.save(s, [tie, late]) == [tie, late]
    assert presets.load(Store("/", fs=fs.reboot())) == ([tie, late], [])
    assert Rules(*presets.setup(tie)[:2]).raise_target and Rules(*presets.setup(late)[:2]).no_late_loners


def test_add_replaces_by_name_in_place_and_remove():
    fs, s = device()
    presets.save(s, [FRIDAY, KIDS])
    new = dict(FRIDAY, options={}, target=15, quick=True)
    assert presets.add(s, "Friday rules", but_name(new)) == [new, KIDS]
    assert presets.add(s, "Big", but_name(ULT)) == [new, KIDS, ULT]
    s = Store("/", fs=fs.reboot())
    assert presets.load(s) == ([new, KIDS, ULT], [])
    assert presets.remove(s, "Kids") == [new, ULT]
    n = len(fs.trace)
    assert presets.remove(s, "Kids") == [new, ULT] and len(fs.trace) == n   # none: nothing written
    assert presets.load(Store("/", fs=fs.reboot())) == ([new, ULT], [])


def test_a_ninth_is_refused_a_replacement_is_not():
    fs, s = device()
    for i in range(8):
        presets.add(s, "P%d" % i, {"variant": "classic", "options": {"winning_score": 5 + i}})
    kept = bytes(fs.files[P])
    assert raises(presets.add, s, "P8", {"variant": "classic"}) == "at most 8 presets"
    assert raises(presets.save, s, presets.load(s)[0] + [ULT]) == "at most 8 presets"
    assert bytes(fs.files[P]) == kept and "/presets.tmp" not in fs.files
    assert len(presets.add(s, "P3", but_name(ULT))) == 8
    assert presets.load(s)[0][3] == dict(ULT, name="P3")


def test_save_refuses_a_broken_rule_with_its_words_and_writes_nothing():
    fs, s = device()
    presets.save(s, [FRIDAY])
    kept = dict(fs.files)
    n = len(fs.trace)
    for bad, words in BAD:
        p = dict(KIDS)
        p.update(bad)
        e = raises(presets.save, s, [FRIDAY, p])
        assert e.startswith("preset ") and words in e, (bad, e)
        assert raises(presets.add, s, p.get("name"), but_name(p)).endswith(e.split(": ", 1)[1]), bad
    assert raises(presets.save, s, [FRIDAY, dict(FRIDAY, quick=True)]) == "preset 'Friday rules': name repeated"
    assert raises(presets.save, s, [FRIDAY, "Kids"]) == "preset None: not a preset"
    assert raises(presets.save, s, "Friday") == "at most 8 presets"
    assert raises(presets.add, s, "Kids", "classic") == "not a preset"
    assert len(fs.trace) == n and fs.files == kept


# What a preset may not be, and words the refusal says (a part of KIDS).
BAD = (
    ({"variant": "euchre9"}, "variant 'euchre9': not one Bower has"),
    ({"variant": "5-handed"}, "not one Bower has"),     # (an alias: the host's)
    ({"variant": 3}, "not one Bower has"),
    ({"options": {"jokers": True}}, "Three-Handed Euchre has no option 'jokers' (options: alone, joker, "
     "march, min_rank, misdeal_passes, play_on, raise_target, std, winning_score)"),
    ({"options": {"no_late_loners": True}}, "Three-Handed Euchre has no option 'no_late_loners'"),   # (Classic's)
    ({"options": {"lone_euchre_4": True}}, "Three-Handed Euchre has no option 'lone_euchre_4'"),     # (Classic's)
    ({"options": {"raise_target": True, "play_on": True}}, "play_on and raise_target"),
    ({"options": {"stick_the_dealer": True}}, "has no option 'stick_the_dealer'"),   # (a long name: the host's)
    ({"options": {"round_hands": 8}}, "has no option 'round_hands'"),   # (a club round's: not a preset's)
    ({"options": {"winning_score": 100}}, "winning_score must be a whole number from 1 to 99, not 100"),
    ({"options": {"winning_score": True}}, "winning_score must be a whole number"),
    ({"options": {}, "target": 0}, "winning_score must be a whole number from 1 to 99, not 0"),
    ({"options": {}, "target": 11.0}, "winning_score must be a whole number"),
    ({"options": {}, "target": "11"}, "winning_score must be a whole number"),
    ({"target": 11}, "target and options' winning_score are one setting: give it once"),
    ({"options": {"min_rank": 9.0}}, "min_rank must be one of"),
    ({"options": {"std": 1}}, "std must be one of"),
    ({"options": {"march": 4}}, "march must be one of"),
    ({"options": {"misdeal_passes": "yes"}}, "misdeal_passes must be one of"),
    ({"options": [1]}, "options: not a dict"),
    ({"quick": 1}, "quick must be true or false, not 1"),
    ({"quick": None}, "quick must be true or false"),
    ({"name": "Friday nights"}, "name: 1 to 12 printable ASCII characters, not only spaces"),
    ({"name": ""}, "name: 1 to 12"),
    ({"name": "   "}, "name: 1 to 12"),
    ({"name": "Caf\u00e9"}, "name: 1 to 12"),
    ({"name": "Ann\x1b"}, "name: 1 to 12"),
    ({"name": 7}, "name: 1 to 12"),
    ({"colour": "red"}, "'colour': not a field of a preset"),
)


def test_a_name_is_what_a_row_shows():
    fs, s = device()
    names = ["Friday rules", " Ann", "A", "x" * 12, "Ann & Bob!", "~{}|\\\""]
    ps = [{"name": n, "variant": "classic"} for n in names]
    assert [p["name"] for p in presets.save(s, ps)] == names
    assert [p["name"] for p in presets.load(Store("/", fs=fs.reboot()))[0]] == names


def test_every_refused_entry_is_one_line_naming_its_rule_the_rest_kept():
    fs, s = device()
    before = others(fs)
    entries = [FRIDAY]
    for bad, _words in BAD:
        p = dict(KIDS)
        p.update(bad)
        entries.append(p)
    entries += [KIDS, dict(KIDS, quick=False), "Kids",
                {"name": "Farm", "variant": "classic", "options": {"farmers_no_call": True}}]
    for i in range(7):
        entries.append(dict(ULT, name="U%d" % i))
    s.rec_file(P, {"version": 1, "presets": entries})
    ps, bad = presets.load(s)
    assert ps == [FRIDAY, KIDS] + [dict(ULT, name="U%d" % i) for i in range(6)], ps
    assert len(bad) == len(BAD) + 4, bad
    for i in range(len(BAD)):
        assert BAD[i][1] in bad[i], (BAD[i], bad[i])
    assert bad[0].startswith("preset 'Kids': variant")
    i = BAD.index(({"name": 7}, "name: 1 to 12"))
    assert bad[i].startswith("preset %d: name" % (i + 2))    # a name that is none: the entry's place
    assert bad[-4:] == ["preset 'Kids': name repeated", "preset %d: not a preset" % (len(BAD) + 4),
                        "preset 'Farm': farmers_nines_only and farmers_no_call require farmers",
                        "preset 'U6': more than 8 presets"], bad[-4:]
    assert others(fs) == before
    # A change keeps the good ones only (the file written again).
    assert presets.remove(s, "U0") == ps[:2] + ps[3:]
    assert presets.load(s) == (ps[:2] + ps[3:], [])


def test_a_damaged_foreign_or_short_file_is_refused_and_nothing_else_is_lost():
    good = encode_line({"version": 1, "presets": [FRIDAY, KIDS]}).encode()
    big = encode_line({"version": 1, "presets": [FRIDAY], "pad": "x" * presets.SIZE}).encode()
    damaged = (b"", b"\x00garbage", b"\xff\xfe\xfd", good[:len(good) // 2], good[:-1] + b"x",
               good.replace(b"Friday", b"Fridax"), good + good, big,
               encode_line([FRIDAY, KIDS]).encode(), encode_line({"presets": [FRIDAY]}).encode(),
               encode_line({"version": "1", "presets": [FRIDAY]}).encode(),
               encode_line({"version": 0, "presets": [FRIDAY]}).encode(),
               encode_line({"version": 1, "presets": {"a": FRIDAY}}).encode(),
               encode_line({"settings": {}, "roster": [], "clock": 0, "next": 2}).encode())
    for b in damaged:
        fs, s = device()
        before = others(fs)
        fs.files[P] = bytearray(b)
        s = Store("/", fs=fs.reboot())
        assert presets.load(s) == ([], ["presets: file corrupt"]), b
        assert s.warnings == [] and others(fs) == before and bytes(fs.files[P]) == b
        assert s.settings["brightness"] == 9 and s.roster == ["Ann", "Bob"] and s.resume(), b
        assert presets.add(s, "Kids", but_name(KIDS)) == [KIDS]     # a new file in its place
        assert presets.load(s) == ([KIDS], [])
    fs, s = device()
    fs.files[P] = bytearray(good)
    assert presets.load(s) == ([FRIDAY, KIDS], [])       # (the good one, to compare)


def test_a_newer_bowers_file_is_refused_and_kept():
    fs, s = device()
    b = encode_line({"version": presets.VERSION + 1, "presets": [FRIDAY], "more": 1}).encode()
    fs.files[P] = bytearray(b)
    assert presets.load(s) == ([], ["presets: from a newer Bower"])
    assert raises(presets.add, s, "Kids", but_name(KIDS)) == "presets: from a newer Bower"
    assert raises(presets.remove, s, "Friday rules") == "presets: from a newer Bower"
    assert bytes(fs.files[P]) == b


def _longest(allowed):
    # The value of an option whose JSON is longest.
    if allowed is None:
        return 99
    best = allowed[0]
    for x in allowed:
        if len(encode_line(x)) > len(encode_line(best)):
            best = x
    return best


def test_the_largest_file_fits_what_is_read_and_the_smaller_files_read_as_before():
    # Eight presets of the variant with the most options, every option at
    # its longest value, names of 12 characters that JSON escapes: read
    # whole (the settings' 1200 bytes would cut it short).
    fs, s = device()
    v = "classic"
    for k in variant_names():
        if len(VARIANTS[k]["options"]) > len(VARIANTS[v]["options"]):
            v = k
    opts = {}
    for k in list(VARIANTS[v]["options"]) + list(LATER + VARIANTS[v].get("later", ())):
        opts[k] = _longest(OPTIONS[k])
    opts["farmers"] = True      # (farmers_nines_only and farmers_no_call need it)
    ps = [{"name": '"\\' * 5 + '"%d' % i, "variant": v, "options": opts, "quick": False} for i in range(8)]
    assert len(ps[0]["name"]) == presets.NAME_MAX
    assert presets.save(s, ps) == ps
    assert 1200 < len(fs.files[P]) <= presets.SIZE - 256, len(fs.files[P])   # (room for an option more)
    assert presets.load(Store("/", fs=fs.reboot())) == (ps, [])
    # The settings are read as before: 1200 bytes (a record longer is cut short).
    for n, warned in ((1000, []), (1300, ["settings reset: file corrupt"])):
        fs.files["/settings"] = bytearray(encode_line(
            {"settings": {}, "roster": [], "clock": 0, "next": 2, "pad": "x" * n}).encode())
        assert Store("/", fs=fs.reboot()).warnings == warned, n
