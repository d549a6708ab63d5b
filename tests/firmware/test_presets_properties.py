"""Property tests (hypothesis) for bower.presets: whatever the presets file
holds -- any JSON, near-valid presets, bytes cut short or changed -- load()
returns, never raises, and changes no other file (nor the presets file);
what it keeps passes the rules and saves and loads back the same. And the
device keeps a preset exactly when the host's ``bower rules check`` passes
it (bower_host.rulesfile), so a shared rules file means the same on both.
CPython only; the portable file has the scripted cases."""

import sys

sys.path.insert(0, "tests/firmware")

from hypothesis import given, settings, HealthCheck
from hypothesis import strategies as st

from fakefs import FakeFS
from bower.store import Store
from bower import presets
from euchre import Game, Rules
from euchre.logline import encode_line
from euchre.rules import OPTIONS
from bower_host.rulesfile import check_preset
from bower_host.rulesdoc import accepted, variants

P = "/presets"


def _device():
    fs = FakeFS()
    s = Store("/", fs=fs)
    s.save_settings({"brightness": 9})
    s.set_roster(["Ann"])
    g = Game(Rules("classic"), dealer=0)
    s.new_game(g)
    g.apply("up H")
    s.record(g, "up H")
    return fs


DEVICE = _device()

json = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 40, 2 ** 40) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20)
option_values = st.sampled_from([True, False, 0, 1, 5, 99, 100, -1, 9, 7, 2, 3, "LEFT_OF_LONER",
                                 "LEFT_OF_DEALER", None, 10.0]) | json
options = st.dictionaries(st.sampled_from(sorted(OPTIONS) + ["stick_the_dealer", "round_hands", "x"]),
                          option_values, max_size=6) | json
names = st.sampled_from(["Friday rules", "Kids", "A", " Ann", "x~{}|\\\"y", "Friday night"])


def _playable(v):
    # Presets of variant ``v`` whose every value is one the option takes
    # (some still refused: farmers_no_call without farmers, a target and a
    # winning_score).
    values = {k: st.sampled_from([1, 11, 99]) if OPTIONS[k] is None else st.sampled_from(OPTIONS[k])
              for k in accepted(v)}
    return st.fixed_dictionaries({"name": names, "variant": st.just(v)}, optional={
        "options": st.fixed_dictionaries({}, optional=values), "target": st.integers(1, 99),
        "quick": st.booleans()})


playable = st.sampled_from(variants()).flatmap(_playable)
preset = playable | playable | st.fixed_dictionaries(
    {}, optional={
        "name": st.sampled_from(["Friday rules", "Kids", "A", "Friday nights", " Ann", "", "   ", "Caf\u00e9",
                                 "a\x1b"]) | st.text(max_size=14) | json,
        "variant": st.sampled_from(["classic", "five", "callpartner", "ultimate", "three", "six", "two",
                                    "5-handed", "Classic", ""]) | json,
        "options": options,
        "target": st.sampled_from([0, 1, 11, 99, 100, 11.0, "11", True, None]),
        "quick": st.sampled_from([0, 1, True, False, None, 1.0]),
        "extra": json})
entry = preset | json
payload = st.fixed_dictionaries(
    {"version": st.sampled_from([1, 1, 1, 2, 0, -1, "1", None, 1.0, True]) | json,
     "presets": st.lists(entry, max_size=11) | json}) | json


def _raw(b, cut, flip):
    # A record's bytes, perhaps cut short or with a byte changed.
    if cut is not None:
        b = b[:cut]
    if flip is not None and b:
        i = flip % len(b)
        b = b[:i] + bytes([(b[i] + 1) % 256]) + b[i + 1:]
    return b


contents = (st.builds(lambda p, c, f: _raw(encode_line(p).encode(), c, f), payload,
                      st.none() | st.integers(0, 400), st.none() | st.integers(0, 10 ** 6))
            | st.binary(max_size=300))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(contents)
def test_load_never_raises_and_never_changes_a_file(b):
    fs = DEVICE.copy()
    fs.files[P] = bytearray(b)
    before = {k: bytes(v) for k, v in fs.files.items()}
    s = Store("/", fs=fs.reboot())
    ps, bad = presets.load(s)
    assert {k: bytes(v) for k, v in fs.files.items()} == before
    assert s.warnings == [] and s.settings["brightness"] == 9 and s.resume() is not None
    assert type(ps) is list and len(ps) <= presets.MOST and type(bad) is list
    assert all(isinstance(x, str) and x.startswith("preset") and "\n" not in x for x in bad), bad
    names = [p["name"] for p in ps]
    assert len(set(names)) == len(names)
    for p in ps:
        assert presets.check(p) == p
    # What was kept is kept again: saved, it loads back the same.
    assert presets.save(s, ps) == ps
    assert presets.load(Store("/", fs=fs.reboot())) == (ps, [])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(entry, max_size=11))
def test_each_entry_of_a_good_file_is_kept_or_refused_in_one_line(entries):
    fs = DEVICE.copy()
    s = Store("/", fs=fs.reboot())
    s.rec_file(P, {"version": 1, "presets": entries})
    ps, bad = presets.load(s)
    if len(fs.files[P]) > presets.SIZE:
        assert (ps, bad) == ([], ["presets: file corrupt"])     # (no Bower writes one that long)
    else:
        assert len(ps) + len(bad) == len(entries), (ps, bad)


@settings(max_examples=600, deadline=None)
@given(preset)
def test_the_device_keeps_a_preset_exactly_when_the_host_passes_it(p):
    try:
        kept = presets.check(p)
    except ValueError as e:
        kept = None
        why = e.args[0]
    name, problems = check_preset(1, p)
    assert (kept is not None) == (problems == []), (p, problems, None if kept else why)
    if kept is not None:
        assert kept == dict(p, options=p.get("options", {}), quick=p.get("quick", False))
