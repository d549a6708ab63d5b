# Presets and the power (issue 36, bower.presets): the power cut at every
# unit of a save, an add and a remove (every byte written, every file made,
# renamed or removed), then a reboot: the presets are the old list or the
# new one, never a part of either and never refused, and the settings and
# the games are as they were. A full flash: synced games are removed, oldest
# first, until the presets fit; a game not synced never is, and with no
# room the presets stay as they were. Also: nothing at boot loads the
# module. The flash of a run cut at N is rebuilt from the uncut run's trace
# (FakeFS.cuts), checked against real cut runs.

import subprocess
import sys

sys.path.insert(0, "tests/firmware")

import pytest

from fakefs import FakeFS, PowerCut
from bower.store import Store, extra
from bower import presets
from euchre import Game, Rules

P = "/presets"
FRIDAY = {"name": "Friday rules", "variant": "classic", "options": {"std": True, "canadian": True},
          "target": 11, "quick": False}
KIDS = {"name": "Kids", "variant": "three", "options": {"winning_score": 7}, "quick": True}
BIG = {"name": "Big", "variant": "ultimate", "options": {}, "quick": False}
ALL = {"name": "All", "variant": "classic", "quick": True, "options": {
    "winning_score": 99, "std": True, "canadian": True, "loner_lead": "LEFT_OF_LONER", "defend_alone": True,
    "farmers": True, "farmers_nines_only": True, "farmers_no_call": True, "partners_best": True,
    "ace_no_face": True, "joker": True, "renege_deduct": True, "misdeal_passes": True}}


def device(fs, games=2):
    # A device that has played ``games`` games (all but the last abandoned,
    # the last in play), set its settings and roster, and kept presets.
    s = Store("/", fs=fs, device="e6614c31", low=0)
    s.save_settings({"brightness": 9, "quick": 1})
    s.set_roster(["Ann", "Bob"])
    for _ in range(games):
        g = Game(Rules("classic"), dealer=0)
        s.new_game(g)
        for e in ("up H", "pass"):
            g.apply(e)
            s.record(g, e)
    s.tidy()    # the one before the last to the archive
    presets.save(s, [FRIDAY, KIDS])
    return s


def state(s, fs):
    # What a reboot must find of everything but the presets.
    return (s.settings, s.roster, s.clock_offset, s.next_no, extra("past").games(s),
            {k: bytes(v) for k, v in fs.files.items() if "/games/" in k or "past" in k},
            s.resume()[0].hand.events)


CHANGES = (
    ("save", lambda s: presets.save(s, [BIG, ALL, FRIDAY]), [BIG, ALL, FRIDAY]),
    ("add", lambda s: presets.add(s, "Big", {"variant": "ultimate"}), [FRIDAY, KIDS, BIG]),
    ("replace", lambda s: presets.add(s, "Friday rules", {"variant": "five"}),
     [{"name": "Friday rules", "variant": "five", "options": {}, "quick": False}, KIDS]),
    ("remove", lambda s: presets.remove(s, "Friday rules"), [KIDS]),
)


@pytest.mark.parametrize("name, change, new", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_power_cut_anywhere_in_a_change_leaves_the_old_presets_or_the_new(name, change, new):
    fs = FakeFS()
    s = device(fs)
    before = state(Store("/", fs=fs.reboot()), fs)
    old = presets.load(s)[0]
    start = fs.spent
    assert change(s) == new
    assert fs.spent - start > 100   # (a whole file written: every byte of it is a cut below)
    seen = set()
    for cut, flash in fs.cuts(range(start, fs.spent + 1)):
        s2 = Store("/", fs=flash)
        got = presets.load(s2)
        assert got in ((old, []), (new, [])), (cut, got)
        assert "/presets.tmp" not in flash.files, cut    # (what a cut left: removed by the load)
        seen.add(got[0] == new)
        assert s2.warnings == [] and state(s2, flash) == before, cut
        # The next change works from there.
        presets.add(s2, "Next", {"variant": "two"})
        assert presets.load(Store("/", fs=flash.reboot()))[0] == got[0] + [
            {"name": "Next", "variant": "two", "options": {}, "quick": False}], cut
    assert seen == {False, True}


def test_a_real_cut_and_the_rebuilt_flash_agree():
    dry = FakeFS()
    s = device(dry)
    start = dry.spent
    presets.save(s, [BIG, ALL, FRIDAY])
    for cut in (start, start + 1, (start + dry.spent) // 2, dry.spent - 2, dry.spent - 1):
        fs = FakeFS(cut=cut)
        s = device(fs)
        with pytest.raises(PowerCut):
            presets.save(s, [BIG, ALL, FRIDAY])
        assert fs.dead and fs.files == dry.at(cut).files, cut


def synced_device(limit_after):
    # Four games: g0001 and g0003 synced, g0002 not, g0004 in play; then the
    # flash ``limit_after`` bytes from full.
    fs = FakeFS()
    s = device(fs, 4)
    for gid in ("g0001", "g0003"):
        crc = [g["crc"] for g in extra("past").games(s) if g["id"] == gid][0]
        assert extra("past").mark_synced(s, gid, crc)
    while s.tidy():
        pass
    fs.limit = fs.used() + limit_after
    return fs, Store("/", fs=fs.reboot(), device="e6614c31", low=0)


def logs(fs):
    return {k: bytes(v) for k, v in fs.files.items() if k.endswith(".log")}


def test_a_full_flash_removes_the_oldest_synced_game_for_the_presets():
    fs, s = synced_device(0)
    kept = logs(fs)
    assert presets.save(s, [BIG]) == [BIG]
    s = Store("/", fs=fs.reboot())
    assert presets.load(s) == ([BIG], [])
    assert [g["id"] for g in extra("past").games(s)] == ["g0002", "g0003", "g0004"]    # g0001 was room enough
    assert logs(fs) == {k: kept[k] for k in kept if "g0001" not in k}
    assert s.resume()[0].hand.events and s.settings["brightness"] == 9 and s.roster == ["Ann", "Bob"]


def test_a_full_flash_never_removes_a_game_not_synced_and_keeps_the_old_presets():
    fs, s = synced_device(0)
    kept = logs(fs)
    every = [dict(ALL, name="A%d" % i) for i in range(8)]     # more than the synced games' room
    with pytest.raises(OSError) as e:
        presets.save(s, every)
    assert e.value.args[0] == 28
    s = Store("/", fs=fs.reboot())
    assert presets.load(s) == ([FRIDAY, KIDS], []) and "/presets.tmp" not in fs.files
    assert [g["id"] for g in extra("past").games(s)] == ["g0002", "g0004"]      # both synced went, neither other
    assert logs(fs) == {k: kept[k] for k in kept if "g0001" not in k and "g0003" not in k}
    assert s.resume()[0].hand.events and s.settings["brightness"] == 9


def test_nothing_at_boot_loads_the_presets():
    code = ("import sys; sys.path.insert(0, 'tests/firmware')\n"
            "import bower_host\n"                    # (puts the device's code on sys.path)
            "from fakefs import FakeFS\n"
            "from bower.store import Store, extra\n"
            "from bower.ui import App\n"
            "from uikit import Rng\n"
            "s = Store('/', fs=FakeFS(), device='d')\n"
            "App(s, {'version': 't', 'device': 'd'}, Rng(5).randrange)\n"
            "extra('past').games(s); s.save_settings({'brightness': 1})\n"
            "assert 'bower.past' in sys.modules\n"
            "print('bower.presets' in sys.modules)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "False", r.stderr
