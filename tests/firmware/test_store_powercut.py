# Power cuts (issue 3, "Never lose a game"): whole scripted games of every
# variant are played through the real store on a FakeFS, and the power is
# cut at every unit of the run (every byte written, every file created,
# renamed or removed) for a Classic game, at a dense sample for the other
# variants. After each cut a new Store on the same flash must bring back
# exactly the state after the last input whose line was completely written,
# settings/roster/clock as of the last completed save, a clean log (the torn
# line cut off), and a game that goes on to the same end, byte for byte.
#
# The flash of a run cut at N is rebuilt from the uncut run's trace
# (FakeFS.at); test_trace_rebuild_equals_a_real_cut_run checks that this is
# exactly what running the store with FakeFS(cut=N) leaves.

import sys

sys.path.insert(0, "tests/firmware")

import pytest

from fakefs import (FakeFS, PowerCut, make_script, states, observe, run_game, expect_settings,
                    count_done, CHANGES)
from bower.store import Store, extra
from euchre import log

GID = "g0001"
LOG = "/games/g0001.log"
DEV = "e6614c31"  # as run_game


class Run:
    # One uncut run of a script, with everything a cut needs to be judged.
    def __init__(self, variant, seed, **options):
        self.rules, self.dealer, self.inputs = make_script(variant, seed, **options)
        self.ref = states(self.rules, self.dealer, self.inputs)
        self.fs = FakeFS()
        self.marks = run_game(self.fs, self.rules, self.dealer, self.inputs)[0]
        self.final = bytes(self.fs.files[LOG])
        self.ends = [self.final.index(b"\n") + 1] + self.marks["ends"]
        self.total = self.fs.spent
        # The input whose line a cut tears (1-based), by cut.
        self.tears = {}
        for i, end in enumerate(self.marks["lines"]):
            for c in range(end - (self.ends[i + 1] - self.ends[i]) + 1, end):
                self.tears[c] = i + 1
        assert len(self.marks["changes"]) == len(CHANGES)
        assert self.ref[-1][4] is not None  # the script plays a whole game

    def torn(self, cut):
        return self.tears.get(cut, 0)

    def check(self, fs, cut, stats=None):
        # Reboot on ``fs`` (the flash after a cut at ``cut``) and check it.
        store = Store("/", fs=fs, device=DEV)
        r = store.resume()
        k = count_done(self.marks, cut)
        # A new device writes nothing to boot; the first game writes the
        # settings before it makes the games directory: no cut leaves one
        # without the other, so none is reported missing.
        assert self.marks["dir"] is None and self.marks["boot"] is None
        warnings = []
        assert (store.settings, store.roster, store.clock_offset) == expect_settings(self.marks, cut), cut
        if cut < self.marks["game"]:
            assert r is None and extra("past").games(store) == [], cut
            assert store.warnings == warnings, (cut, store.warnings)
            return store, None, k
        if self.torn(cut):
            warnings.append("%s torn line %d dropped" % (GID, self.torn(cut) + 1))
        assert store.warnings == warnings, (cut, store.warnings)
        # The log is clean again: exactly the lines completely written.
        assert bytes(fs.files[LOG]) == self.final[:self.ends[k]], cut
        exp = self.ref[k]
        if exp[4]:
            assert r is None, cut
            assert extra("past").games(store)[0]["state"] == "finished"
            return store, None, k
        assert r is not None, (cut, store.warnings)
        game, info = r
        assert observe(game) == exp, (cut, k)
        t = self.torn(cut)
        assert info["dropped"] == ("torn line %d dropped" % (t + 1) if t else None)
        if stats is not None:
            stats[info["checkpoint"]] += 1
        return store, game, k

    def go_on(self, store, game, k):
        # Play the rest after a reboot; the game must end as the uncut run.
        if game is None and k < len(self.inputs):
            run_game(store.fs, self.rules, self.dealer, self.inputs, 0, store)
        elif game is not None:
            run_game(store.fs, self.rules, self.dealer, self.inputs, k, store, game)
        fs = store.fs.reboot()
        s = Store("/", fs=fs, device=DEV)
        assert s.resume() is None and s.warnings == []
        gids = [g["id"] for g in extra("past").games(s)]
        assert extra("past").games(s)[-1]["state"] == "finished"
        text = bytes(fs.files["/games/%s.log" % gids[-1]])
        if gids == [GID]:
            assert text == self.final
        g, dropped = log.loads(text.decode())
        assert dropped is None and observe(g) == self.ref[-1]


def test_power_cut_at_every_unit_of_a_classic_game():
    run = Run("classic", 1)
    assert run.total > 2500
    stats = {0: 0, 1: 0}
    for cut, flash in run.fs.cuts(range(run.total + 1)):
        store, game, k = run.check(flash, cut, stats)
        if cut % 61 == 0:
            run.go_on(store, game, k)
    # Most resumes start from a checkpoint; some find it stale (an undo
    # went back over the hand boundary) or before the first one.
    assert stats[1] > 1000 and stats[0] > 100, stats


@pytest.mark.parametrize("variant, seed, options", [
    ("five", 3, {"winning_score": 5}),
    ("callpartner", 3, {}),
    ("ultimate", 1, {}),
    ("classic", 2, {"std": True, "defend_alone": True, "winning_score": 5}),
], ids=["five", "callpartner", "ultimate", "classic-options"])
def test_power_cut_around_every_write_of_other_variants(variant, seed, options):
    run = Run(variant, seed, **options)
    cuts = set(range(0, run.total + 1, 31))
    for t in run.fs.trace:  # around every change: the likeliest places to tear
        cuts.update((t[2] - 1, t[2]))
    for cut, flash in run.fs.cuts(sorted(c for c in cuts if 0 <= c <= run.total)):
        store, game, k = run.check(flash, cut)
        if cut % 47 == 0:
            run.go_on(store, game, k)


def test_trace_rebuild_equals_a_real_cut_run():
    # FakeFS.at(N) is the flash a run with FakeFS(cut=N) really leaves.
    run = Run("classic", 3)
    for cut in list(range(0, run.total, 37)) + [run.total - 1, run.total]:
        fs = FakeFS(cut=cut)
        try:
            run_game(fs, run.rules, run.dealer, run.inputs)
        except PowerCut:
            pass
        # (A cut in the last checkpoint or "finished" write is not raised
        # from record: those are shortcuts, and the device is off anyway.)
        assert fs.dead == (cut < run.total), cut
        rebuilt = run.fs.at(cut)
        assert fs.files == rebuilt.files and fs.dirs == rebuilt.dirs, cut
        run.check(fs.reboot(), cut)


def test_power_cut_during_recovery():
    # The recovery itself (cutting off a torn line, marking a finished game
    # so) can be cut too: the next boot recovers the same. Cuts sampled over each recovery, every unit around its
    # renames and removes.
    run = Run("classic", 2)
    torn = [c for c in range(run.total) if run.torn(c)]
    last = run.marks["lines"][-1]
    picked = [last, last + 1] + torn[::len(torn) // 6]
    for cut in picked:
        flash = run.fs.at(cut)
        probe = flash.copy()
        Store("/", fs=probe, device=DEV).resume()
        assert probe.spent > 0, cut
        ms = set(range(0, probe.spent, 41))
        for t in probe.trace:
            if t[0] != "write":
                ms.update((t[2] - 1, t[2]))
        for m in sorted(ms):
            fs = flash.copy(cut=m)
            try:
                Store("/", fs=fs, device=DEV).resume()
            except PowerCut:
                pass
            store = Store("/", fs=fs.reboot(), device=DEV)
            r = store.resume()
            k = count_done(run.marks, cut)
            if cut >= run.marks["game"]:
                assert bytes(store.fs.files[LOG]) == run.final[:run.ends[k]], (cut, m)
                assert extra("past").games(store)[0]["state"] == ("finished" if run.ref[k][4] else "playing")
            if r is not None:
                assert observe(r[0]) == run.ref[k], (cut, m)
            else:
                assert cut < run.marks["game"] or run.ref[k][4], (cut, m)


def test_fakefs_power_switch():
    # The wrapper itself: the write that crosses the budget writes part of
    # its bytes, then everything raises; a rename happens entirely or not.
    fs = FakeFS(cut=7)
    fs.mkdir("/d")                              # 1 unit
    with fs.open("/d/a", "wb") as f:            # 1 unit to create
        f.write(b"abc")                         # 3 units
    try:
        with fs.open("/d/a", "ab") as f:
            f.write(b"defgh")                   # only "de" fits
        raise AssertionError("no power cut")
    except PowerCut:
        pass
    assert bytes(fs.files["/d/a"]) == b"abcde" and fs.dead
    for call in (lambda: fs.listdir("/d"), lambda: fs.stat("/d/a"), lambda: fs.open("/d/a", "rb")):
        try:
            call()
            raise AssertionError("still powered")
        except PowerCut:
            pass
    fs = fs.reboot(cut=0)
    assert fs.listdir("/d") == ["a"] and fs.open("/d/a", "rb").read() == b"abcde"
    try:
        fs.rename("/d/a", "/d/b")
        raise AssertionError("no power cut")
    except PowerCut:
        pass
    assert list(fs.reboot().files) == ["/d/a"]
