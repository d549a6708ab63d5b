# The flash store (bower.store) as the UI and the link use it: settings,
# roster and clock survive reboots and fall back to defaults when damaged;
# games are recorded input by input and resumed from a per-hand checkpoint
# whose cost does not grow with the game; corrupt logs are reported and left
# alone; the link lists, reads and marks games; space is only ever made by
# removing games already synced. Power cuts: test_store_powercut.py.

import os
import sys
import zlib

sys.path.insert(0, "tests/firmware")

import pytest

from fakefs import FakeFS, make_script, states, observe, play, fingerprint
from helpers import CLASSIC_TO_5 as CLASSIC  # a Classic game to 5: five scored hands, a misdeal
from bower.store import Store, extra
from bower.prefs import DEFAULTS
from euchre import Game, Rules, IllegalAction
from euchre import log

LOG = "/games/g0001.log"
PAST = "/past/g0001.log"   # where the next game's start moves it (the archive)


def classic():
    return Game(Rules("classic", winning_score=5), ["Ann", "Bob", "Cy", "Di"], dealer=0)


def boot(fs, **kw):
    return Store("/", fs=fs, device="e6614c31", **kw)


def played(store, events, game=None):
    # Apply and record ``events`` as the UI does; returns the game.
    if game is None:
        game = classic()
        store.new_game(game, started=1750000000)
    for e in events:
        if e == "undo":
            try:
                game.undo()
            except IllegalAction:
                game = store.load_full()
                game.undo()
        else:
            game.apply(e)
        store.record(game, e)
        store.idle()    # the app idle between inputs: a new hand's checkpoint
    return game


def reference(events):
    g = classic()
    for e in events:
        play(g, e)
    return g


def lines(fs, path=LOG):
    return bytes(fs.files[path]).decode().splitlines(True)


# ----- settings, roster, clock ---------------------------------------------


def test_a_fresh_device_gets_defaults_without_a_warning():
    fs = FakeFS()
    s = boot(fs)
    assert s.settings == DEFAULTS and s.settings is not DEFAULTS
    assert s.roster == [] and s.clock_offset == 0 and s.warnings == []
    assert fs.files == {} and "/games" not in fs.dirs   # nothing written to boot
    s = boot(fs.reboot())
    assert s.settings == DEFAULTS and s.warnings == []
    s.new_game(Game(Rules("classic")))                     # the first game writes both
    assert "/settings" in fs.files and "/games" in fs.dirs
    s = boot(fs.reboot())
    assert s.settings == DEFAULTS and s.warnings == [] and s.resume() is not None


def test_settings_roster_and_clock_survive_a_reboot():
    fs = FakeFS()
    s = boot(fs)
    s.save_settings({"brightness": 80, "dim_s": 0, "off_s": 300, "names": 1, "quick": 1, "sound": 2})
    s.set_roster(["Ann", "Bob-2", "Zed Q", "12345678"])
    s.set_clock_offset(-3600)
    s = boot(fs.reboot())
    assert s.settings == {"brightness": 80, "dim_s": 0, "off_s": 300, "names": 1, "quick": 1, "sound": 2}
    assert s.roster == ["Ann", "Bob-2", "Zed Q", "12345678"]
    assert s.clock_offset == -3600 and s.warnings == []
    # A partial dict keeps the defaults for the rest.
    s.save_settings({"brightness": 10})
    assert boot(fs.reboot()).settings == dict(DEFAULTS, brightness=10)


def test_bad_settings_roster_and_clock_change_nothing():
    fs = FakeFS()
    s = boot(fs)
    s.set_roster(["Ann"])
    before = bytes(fs.files["/settings"])
    bad_rosters = [[""], ["123456789"], ["Zo\u00eb"], ["a\tb"], [" Al"], ["Al "], ["Ann", "Ann"],
                   ["P%d" % i for i in range(17)], [5], "Abc", ("Ann",), None]
    for bad in bad_rosters:
        with pytest.raises(ValueError):
            s.set_roster(bad)
    for bad in ({"brightness": "high"}, {"dim_s": 1.5}, {"names": None}):
        with pytest.raises(ValueError):
            s.save_settings(bad)
    for bad in (1.5, "60", None, True):
        with pytest.raises(ValueError):
            s.set_clock_offset(bad)
    assert bytes(fs.files["/settings"]) == before
    assert (s.settings, s.roster, s.clock_offset) == (DEFAULTS, ["Ann"], 0)
    # Sixteen names is the most; names may hold any printable ASCII.
    s.set_roster(["N%02d~!" % i for i in range(16)])
    assert boot(fs.reboot()).roster == ["N%02d~!" % i for i in range(16)]


@pytest.mark.parametrize("content", [
    b"",
    b"\xff\xfe garbage \x00\x01",
    b'[{"settings": {}},"00000000"]\n',                       # bad CRC
    log.encode_line([1, 2, 3]).encode(),                      # not a dict
    log.encode_line({"settings": {"brightness": "x"}, "roster": [], "clock": 0, "next": 1}).encode(),
    log.encode_line({"settings": {}, "roster": ["../../x" * 3], "clock": 0, "next": 1}).encode(),
    log.encode_line({"settings": {}, "roster": [], "clock": 0}).encode(),
], ids=["empty", "garbage", "bad-crc", "list", "bad-value", "bad-roster", "no-counter"])
def test_a_damaged_settings_file_falls_back_to_defaults_with_a_warning(content):
    fs = FakeFS()
    s = boot(fs)
    s.save_settings({"brightness": 9})
    s.set_roster(["Ann"])
    played(s, CLASSIC[:3])
    fs.files["/settings"] = bytearray(content)
    s = boot(fs.reboot())
    assert s.warnings == ["settings reset: file corrupt"]
    assert (s.settings, s.roster, s.clock_offset) == (DEFAULTS, [], 0)
    # The defaults are written back: one warning, not one per boot.
    s = boot(fs.reboot())
    assert s.warnings == []
    # The game counter was in that file: the next id still follows g0001.
    assert s.resume()[0].event_count() == 3
    assert s.new_game(classic()) == "g0002"


def test_a_missing_settings_file_on_a_used_device_is_reported():
    fs = FakeFS()
    boot(fs).new_game(classic())   # used: it has its games directory
    del fs.files["/settings"]
    s = boot(fs.reboot())
    assert s.warnings == ["settings reset: file missing"] and s.settings == DEFAULTS


def test_a_new_device_cut_off_while_a_game_was_set_up_is_still_new():
    # prepare() makes a new device's games directory while the first game
    # is set up; the power cut before the game starts. Nothing was kept and
    # nothing lost: no "settings reset" on the next boot (found by the
    # phone's kill-at-every-press test, BOWER_PHONE_KILLS=99).
    import bower.past  # noqa: F401  (prepare runs while bower.past is loaded, as in App.warm)
    fs = FakeFS()
    s = boot(fs)
    assert s.prepare() and "/games" in fs.dirs
    s = boot(fs.reboot())
    assert s.warnings == [] and s.settings == DEFAULTS
    assert s.new_game(classic()) == "g0001"


def test_a_missing_settings_file_beside_archived_games_is_reported():
    # An empty games directory is a new device's only while no game was
    # kept: with the archive's games, a missing settings file is reported.
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC)
    s.new_game(classic())
    while s.tidy():        # g0001 to the archive
        pass
    for p in [p for p in fs.files if p.startswith("/games/")]:
        del fs.files[p]
    del fs.files["/settings"]
    s = boot(fs.reboot())
    assert s.warnings == ["settings reset: file missing"]
    assert s.new_game(classic()) == "g0002"   # (the archive's g0001 is not reused)


# ----- recording and resuming ----------------------------------------------


def test_new_game_writes_the_header_with_id_device_and_start():
    fs = FakeFS()
    s = boot(fs)
    g = classic()
    assert s.new_game(g, started=1750000123) == "g0001"
    header = log.decode_line(lines(fs)[0])
    assert header == dict(log.header_payload(g), id="g0001", device="e6614c31", started=1750000123)
    assert extra("past").games(s) == [{"id": "g0001", "size": len(fs.files[LOG]), "state": "playing", "synced": False,
                          "crc": "%08x" % zlib.crc32(bytes(fs.files[LOG]))}]
    g.apply("up H")
    with pytest.raises(ValueError):
        s.new_game(g)  # not a new game
    with pytest.raises(ValueError):
        boot(fs.reboot()).record(g, "up H")  # nothing resumed or started


def test_every_input_is_on_flash_as_a_log_line():
    fs = FakeFS()
    s = boot(fs)
    g = played(s, CLASSIC)
    assert "".join(lines(fs)[1:]) == "".join(log.encode_line(e) for e in CLASSIC)
    replayed, dropped = log.loads("".join(lines(fs)))
    assert dropped is None and fingerprint(replayed) == fingerprint(g) and g.result
    # Each record ends with the data synced to flash.
    assert fs.syncs >= len(CLASSIC)


def test_resume_after_every_input_of_every_variant():
    for variant, seed in (("classic", 5), ("five", 3), ("callpartner", 1), ("ultimate", 2)):
        options = {"winning_score": 5} if variant == "five" else {}
        rules, dealer, inputs = make_script(variant, seed, **options)
        ref = states(rules, dealer, inputs)
        fs = FakeFS()
        s = boot(fs)
        g = Game(rules, dealer=dealer)
        s.new_game(g)
        for i, e in enumerate(inputs):
            if i % 3 == 0 and not ref[i][4]:  # reboot: a new store on the same flash
                s = boot(fs.reboot())
                r = s.resume()
                assert r is not None and s.warnings == [], (variant, i)
                g = r[0]
                assert observe(g) == ref[i], (variant, i)
            g = played(s, [e], g)
        assert boot(fs.reboot()).resume() is None
        assert observe(g) == ref[-1]


def test_a_card_mode_game_resumes_from_its_checkpoints():
    from euchre.bot import choose
    from euchre.actions import action_name
    from euchre.hand import P_DEAL
    rules = Rules("classic", winning_score=5)
    g = Game(rules, dealer=2, cards=True)
    deck = list(rules.deck)
    fs = FakeFS()
    s = boot(fs)
    s.new_game(g)
    inputs = []
    x = 7
    while not g.result:
        if g.hand.phase == P_DEAL:  # a fixed shuffle per hand
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            k = 1 + x % (len(deck) - 1)
            deck = deck[k:] + deck[:k]
            order = [deck[(i * 7) % len(deck)] for i in range(len(deck))]
            g.deal(order)
            e = g.events()[-1]
        else:
            e = action_name(choose(g.hand))
            g.apply(e)
        s.record(g, e)
        inputs.append(e)
        if len(inputs) % 11 == 0:
            s = boot(fs.reboot())
            r = s.resume()
            assert observe(r[0]) == observe(g) and r[0].hand.play.hands == g.hand.play.hands
            g = r[0]
    assert len(inputs) > 50 and boot(fs.reboot()).resume() is None
    replayed, dropped = log.loads(bytes(fs.files[LOG]).decode())
    assert replayed.events() == inputs and replayed.scores == g.scores


def test_resume_cost_does_not_grow_with_the_game():
    # 3 hands or 30: the same lines read, nearly the same bytes (the
    # checkpoint's scores have more digits), far less than the log.
    def game_of(hands):
        fs = FakeFS()
        s = boot(fs)
        g = Game(Rules("classic", winning_score=99), dealer=0)
        s.new_game(g)
        for _ in range(hands):
            played(s, ["up H", "pass", "order", "tricks 3"], g)
        played(s, ["up S", "pass"], g)
        fs = fs.reboot()
        s = boot(fs)
        before = (fs.bytes_read, fs.lines_read)
        game, info = s.resume()
        cost = (fs.bytes_read - before[0], fs.lines_read - before[1])
        assert game.hand_no == hands + 1 and game.hand.events == 2 and observe(game) == observe(g)
        assert info["checkpoint"] and info["read"] == 2 and info["lines"] == 1 + 4 * hands + 2
        return cost, len(fs.files[LOG])
    (b3, l3), size3 = game_of(3)
    (b30, l30), size30 = game_of(30)
    assert l30 == l3 and b30 - b3 <= 8, ((b3, l3), (b30, l30))
    assert b30 * 3 < size30


def test_undo_after_a_reboot_reaches_into_earlier_hands():
    # Resumed from the checkpoint of hand 3, undo goes back into hand 2
    # through load_full; the checkpoint is stale until hand 3 starts again,
    # and a reboot in between replays the whole log (never a wrong state).
    fs = FakeFS()
    s = boot(fs)
    done = CLASSIC[:16]  # hands 1 and 2, then "up C" of hand 3
    played(s, done)
    s = boot(fs.reboot())
    g, info = s.resume()
    assert info["checkpoint"] and g.event_count() == 16
    g = played(s, ["undo", "undo", "undo"], g)
    assert observe(g) == observe(reference(done[:13]))
    s = boot(fs.reboot())
    g, info = s.resume()
    assert not info["checkpoint"] and observe(g) == observe(reference(done[:13]))
    g = played(s, ["won 1", "won 2"], g)  # hand 2 ends differently: a new checkpoint
    s = boot(fs.reboot())
    g2, info = s.resume()
    assert info["checkpoint"] and observe(g2) == observe(g)
    assert observe(g2) == observe(reference(done[:13] + ["won 1", "won 2"]))


def test_a_finished_game_is_not_resumed():
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC)
    assert boot(fs.reboot()).resume() is None
    assert extra("past").games(s)[0]["state"] == "finished"
    # Power lost before the "finished" mark: found finished at the next boot.
    del fs.files["/games/g0001.st"]
    s = boot(fs.reboot())
    assert s.resume() is None and extra("past").games(s)[0]["state"] == "finished" and s.warnings == []


def test_the_end_of_a_game_can_be_undone():
    fs = FakeFS()
    s = boot(fs)
    g = played(s, CLASSIC)
    assert extra("past").games(s)[0]["state"] == "finished"
    g = played(s, ["undo"], g)
    assert extra("past").games(s)[0]["state"] == "playing" and not g.result
    r = boot(fs.reboot()).resume()
    assert observe(r[0]) == observe(reference(CLASSIC[:-1]))
    g = played(s, ["tricks 3"], g)
    assert g.result and extra("past").games(s)[0]["state"] == "finished"
    assert boot(fs.reboot()).resume() is None
    assert observe(log.loads(bytes(fs.files[LOG]).decode())[0]) == observe(g)


def test_a_new_game_abandons_the_unfinished_one_and_keeps_it():
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:5])
    kept = bytes(fs.files[LOG])
    s = boot(fs.reboot())
    assert s.new_game(classic()) == "g0002"
    assert [(g["id"], g["state"]) for g in extra("past").games(s)] == [("g0001", "abandoned"), ("g0002", "playing")]
    assert bytes(fs.files[LOG]) == kept
    while s.tidy():     # the app idle: the older game goes to the archive
        pass
    assert bytes(fs.files[PAST]) == kept and LOG not in fs.files
    assert [(g["id"], g["state"]) for g in extra("past").games(s)] == [("g0001", "abandoned"), ("g0002", "playing")]
    s = boot(fs.reboot())
    assert s.resume()[1]["id"] == "g0002"


def test_a_corrupt_earlier_line_is_reported_and_left_alone():
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:8])  # hand 1, then hand 2 up to its fourth input
    text = lines(fs)
    at = len("".join(text[:6])) + 3  # a byte of line 7 ("pass" of hand 2)
    fs.files[LOG][at] ^= 0x20
    flipped = bytes(fs.files[LOG])
    s = boot(fs.reboot())
    assert s.resume() is None
    assert s.warnings == ["g0001 line 7 corrupt: not resumed"]
    assert bytes(fs.files[LOG]) == flipped
    # Still listed (and synced as is), abandoned by the next game, never changed.
    assert extra("past").games(s)[0]["state"] == "playing"
    s.new_game(classic())
    assert extra("past").games(s)[0]["state"] == "abandoned" and bytes(fs.files[LOG]) == flipped
    while s.tidy():
        pass
    assert extra("past").games(s)[0]["state"] == "abandoned" and bytes(fs.files[PAST]) == flipped


def test_a_corrupt_header_or_refused_event_is_not_resumed():
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:2])
    fs.files[LOG][5] ^= 0x01
    s = boot(fs.reboot())
    assert s.resume() is None and s.warnings[0].startswith("g0001 line 1:")
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:2])
    fs.files[LOG] += log.encode_line("order alone best").encode() + log.encode_line("pass").encode()
    s = boot(fs.reboot())
    assert s.resume() is None and s.warnings == ["g0001 line 4 refused: not resumed"]


def test_a_corrupt_line_before_the_checkpoint_shows_at_load_full():
    # A resume reads only the current hand; damage to earlier hands shows
    # when the whole log is needed (undo past the checkpoint) and at sync.
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:6])
    fs.files[LOG][len("".join(lines(fs)[:2])) + 3] ^= 0x20  # line 3
    s = boot(fs.reboot())
    g, info = s.resume()
    assert info["checkpoint"] and observe(g) == observe(reference(CLASSIC[:6]))
    with pytest.raises(ValueError, match="line 3"):
        s.load_full()


@pytest.mark.parametrize("tail", [b'["pass","1a2b', b'["pass","' + b"%08x" % zlib.crc32(b'"pass"') + b'"]'],
                         ids=["torn", "no-newline"])
def test_a_torn_last_line_is_dropped_and_cut_off(tail):
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:6])
    good = bytes(fs.files[LOG])
    fs.files[LOG] += tail
    s = boot(fs.reboot())
    g, info = s.resume()
    assert observe(g) == observe(reference(CLASSIC[:6]))
    assert info["dropped"] == "torn line 8 dropped" and s.warnings == ["g0001 torn line 8 dropped"]
    assert bytes(fs.files[LOG]) == good and "/games/g0001.tmp" not in fs.files
    g = played(s, CLASSIC[6:], g)
    replayed, dropped = log.loads(bytes(fs.files[LOG]).decode())
    assert dropped is None and fingerprint(replayed) == fingerprint(reference(CLASSIC))


def test_a_full_flash_never_leaves_part_of_a_line_in_the_log():
    # record raises and the input is not on flash: the caller takes it back
    # (issue 13, section 4). The part of its line that did get written is
    # cut off before the next append, which needs room for a copy too.
    fs = FakeFS()
    s = boot(fs)
    g = played(s, CLASSIC[:4])
    good = bytes(fs.files[LOG])
    fs.full = 10
    g.apply(CLASSIC[4])
    with pytest.raises(OSError):
        s.record(g, CLASSIC[4])
    assert len(fs.files[LOG]) == len(good) + 10
    g.undo()
    with pytest.raises(OSError):  # still full
        played(s, CLASSIC[4:5], g)
    g.undo()
    assert bytes(fs.files[LOG]) == good + log.encode_line(CLASSIC[4]).encode()[:10]
    assert [p for p in fs.files if p.endswith(".tmp")] == []
    s2 = boot(fs.reboot())
    assert observe(s2.resume()[0]) == observe(reference(CLASSIC[:4]))
    fs.full = None
    g = played(s, CLASSIC[4:9], g)
    assert bytes(fs.files[LOG]) == good + "".join(log.encode_line(e) for e in CLASSIC[4:9]).encode()
    s = boot(fs.reboot())
    assert observe(s.resume()[0]) == observe(reference(CLASSIC[:9])) == observe(g)
    # Full, then the power goes: the part written is a torn line.
    fs = fs.reboot()
    s = boot(fs)
    g = s.resume()[0]
    fs.full = 3
    g.apply(CLASSIC[9])
    with pytest.raises(OSError):
        s.record(g, CLASSIC[9])
    s = boot(fs.reboot())
    assert observe(s.resume()[0]) == observe(reference(CLASSIC[:9]))
    assert s.warnings == ["g0001 torn line 11 dropped"]


@pytest.mark.parametrize("ck", [
    b"not a checkpoint\n",
    log.encode_line("tricks 3").encode(),
    log.encode_line([[4, 2, 1, 1, 0, 1, 0], 77, 2]).encode(),       # offset inside a line
    log.encode_line([[4, 2, 1, 1, 0, 1, 0], 10 ** 6, 2]).encode(),  # past the end
    log.encode_line([[4, 2, 1, 1, 0], 0, 2]).encode(),              # another game's shape
], ids=["garbage", "not-a-list", "mid-line", "past-end", "wrong-shape"])
def test_an_unusable_checkpoint_falls_back_to_full_replay(ck):
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:6])
    fs.files["/games/g0001.ck"] = bytearray(ck)
    s = boot(fs.reboot())
    g, info = s.resume()
    assert not info["checkpoint"] and info["read"] == 6
    assert observe(g) == observe(reference(CLASSIC[:6])) and s.warnings == []


def test_leftovers_of_interrupted_writes_are_cleared_at_boot():
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:6])
    for junk in ("/games/g0002.tmp", "/games/g0001.st.tmp", "/games/g0005.ck", "/games/g0005.st"):
        fs.files[junk] = bytearray(b"half")
    fs.files["/settings.tmp"] = bytearray(b"half")
    s = boot(fs.reboot())
    assert sorted(fs.files) == ["/games/g0001.ck", LOG, "/settings", "/settings.tmp"]
    assert s.resume()[1]["checkpoint"]


# ----- the link: list, read, mark synced; space ----------------------------


def test_games_read_and_mark_synced():
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC)
    s.new_game(classic())  # g0002: playing, no input yet
    while s.tidy():        # g0001 to the archive
        pass
    listed = extra("past").games(s)
    assert [(x["id"], x["state"], x["synced"]) for x in listed] == [("g0001", "finished", False),
                                                                    ("g0002", "playing", False)]
    data = bytes(fs.files[PAST])
    assert listed[0]["crc"] == "%08x" % zlib.crc32(data) and listed[0]["size"] == len(data)
    got = b""
    while len(got) < len(data) + 100:
        chunk = s.read("g0001", len(got), 100)
        if not chunk:
            break
        got += chunk
    assert got == data and s.read("g0001", 10 ** 6, 100) == b""
    assert extra("past").mark_synced(s, "g0001", "00000000") is False
    assert extra("past").mark_synced(s, "g0001", listed[0]["crc"].upper()) is True
    assert extra("past").games(s)[0]["synced"] and extra("past").games(boot(fs.reboot()))[0]["synced"]
    # A game in play syncs partially; more inputs make it unsynced again.
    crc2 = extra("past").games(s)[1]["crc"]
    assert extra("past").mark_synced(s, "g0002", crc2)
    assert extra("past").games(s)[1]["synced"] and extra("past").games(s)[1]["state"] == "playing"
    s = boot(fs.reboot())
    g, info = s.resume()
    played(s, ["up H"], g)
    assert not extra("past").games(s)[1]["synced"] and extra("past").games(s)[0]["synced"]
    with pytest.raises(ValueError):
        extra("past").mark_synced(s, "g0099", crc2)
    with pytest.raises(OSError):
        s.read("g0099", 0, 10)


@pytest.mark.parametrize("bad", ["../x", "g1/../../", "", "g12", "g0001/../g0001", "G0001", "g-001",
                                 "g 0001", "g0001.log", "g0001\x00", "g\uff11\uff12\uff13\uff14",
                                 "/games/g0001", None, 7])
def test_read_and_mark_synced_refuse_bad_ids(bad):
    fs = FakeFS()
    s = boot(fs)
    played(s, CLASSIC[:2])
    with pytest.raises(ValueError):
        s.read(bad, 0, 10)
    with pytest.raises(ValueError):
        extra("past").mark_synced(s, bad, "00000000")


def test_usage_and_low_space():
    fs = FakeFS(capacity=64 * 4096)
    s = boot(fs, low=16384)
    played(s, CLASSIC)
    used, free = s.usage()
    # The logs' bytes; the free space: littlefs's figure when last asked,
    # less what was written since (asked afresh after a boot).
    assert used == sum(len(fs.files[p]) for p in fs.files if p.endswith(".log"))
    real = fs.statvfs("/")[1] * fs.statvfs("/")[4]
    assert free <= real and not s.low_space()
    assert boot(fs.reboot()).usage()[1] == real
    assert boot(fs.reboot(), low=real + 1).low_space()


def test_make_room_removes_only_synced_finished_or_abandoned_games():
    fs = FakeFS(capacity=256 * 4096)
    s = boot(fs)
    played(s, CLASSIC)                           # g0001 finished, synced
    played(s, CLASSIC)                           # g0002 finished, not synced
    played(s, CLASSIC[:5])                       # g0003 abandoned by g0004, synced
    played(s, CLASSIC[:7])                       # g0004 playing, synced (partial)
    crcs = dict((g["id"], g["crc"]) for g in extra("past").games(s))
    for gid in ("g0001", "g0003", "g0004"):
        assert extra("past").mark_synced(s, gid, crcs[gid])
    free = boot(fs.reboot()).usage()[1]
    # Enough room already: nothing goes.
    assert boot(fs.reboot(), low=free).make_room() == []
    # Short of one block: the oldest synced game goes, and only it.
    s = boot(fs.reboot(), low=free + 4096)
    assert s.make_room() == ["g0001"]
    assert [g["id"] for g in extra("past").games(s)] == ["g0002", "g0003", "g0004"]
    # Short of much more: every synced finished/abandoned game goes; never
    # g0002 (not synced) or g0004 (in play), however low the space.
    s = boot(fs.reboot(), low=10 ** 9)
    assert s.make_room() == ["g0003"] and s.low_space()
    assert [g["id"] for g in extra("past").games(s)] == ["g0002", "g0004"]
    assert sorted(p for p in fs.files if "g0001" in p or "g0003" in p) == []
    assert s.resume()[0].event_count() == 7
    # Ids are never reused, even when the newest games are gone.
    assert s.new_game(classic()) == "g0005"


def test_on_a_real_directory_with_the_os_module(tmp_path):
    # The default fs (os + open): a whole game with a reboot after each input.
    root = str(tmp_path / "flash")
    s = Store(root, device="e6614c31")
    s.set_roster(["Ann", "Bob"])
    g = classic()
    s.new_game(g)
    for e in CLASSIC:
        s = Store(root, device="e6614c31")
        r = s.resume()
        assert r is not None and s.warnings == [] and observe(r[0]) == observe(g)
        g = played(s, [e], r[0])
    s = Store(root)
    assert s.resume() is None and s.roster == ["Ann", "Bob"]
    path = os.path.join(root, "games", "g0001.log")
    with open(path, "rb") as f:
        data = f.read()
    assert extra("past").games(s) == [{"id": "g0001", "size": len(data), "crc": "%08x" % zlib.crc32(data),
                          "state": "finished", "synced": False}]
    assert sorted(os.listdir(os.path.join(root, "games"))) == ["g0001.ck", "g0001.log", "g0001.st"]
    assert s.usage()[0] == len(data)
    assert observe(log.loads(data.decode())[0]) == observe(g) == observe(reference(CLASSIC))


# ----- the archive (firmware/STORAGE.md) --------------------------------------


def idle(s):
    # The app idle outside a hand (App.warm): the store's deferred work.
    n = 0
    while s.tidy():
        n += 1
    return n


def finished_games(fs, n, low=32768):
    # ``n`` finished games, each left for the next (archived while idle),
    # then one in play (two inputs). Returns the store, the logs by id and
    # the game in play.
    s = boot(fs, low=low)
    for _ in range(n):
        played(s, CLASSIC)
        s.close()
        idle(s)
    g = played(s, CLASSIC[:2])
    idle(s)
    logs = {}
    for p in fs.files:
        if p.endswith(".log"):
            logs[p.rsplit("/", 1)[1][:-4]] = bytes(fs.files[p])
    return s, logs, g


def test_older_games_go_to_the_archive_when_idle_and_are_listed_read_and_synced_from_it():
    fs = FakeFS()
    s, logs, g = finished_games(fs, 3)
    assert sorted(p for p in fs.files if "/games/" in p) == ["/games/g0004.log"]
    assert sorted(p for p in fs.files if "/past/" in p) == ["/past/g000%d.log" % i for i in (1, 2, 3)]
    idx = bytes(fs.files["/past.idx"])
    assert len(idx) == 3 * 32 and idx[:32] == b"g0001      %07d %08x f 0\n" % (
        len(logs["g0001"]), zlib.crc32(logs["g0001"]))
    listed = extra("past").games(s)
    assert [(g["id"], g["state"], g["synced"]) for g in listed] == [
        ("g0001", "finished", False), ("g0002", "finished", False), ("g0003", "finished", False),
        ("g0004", "playing", False)]
    for g in listed:
        assert g["size"] == len(logs[g["id"]]) and g["crc"] == "%08x" % zlib.crc32(logs[g["id"]])
        assert s.read(g["id"], 0, 10 ** 6) == logs[g["id"]]
    assert s.count() == 4 and [e[0] for e in extra("past").each(s)] == ["g0001", "g0002", "g0003", "g0004"]
    past = extra("past")
    assert past.mark_synced(s, "g0002", listed[1]["crc"]) and not past.mark_synced(s, "g0003", "00000000")
    # LIST's lines (cut from the index lines), marks applied: as games() says.
    assert [x.decode() for x in s.listing()] == [
        "%s %d %s %s %d" % (g["id"], g["size"], g["crc"], g["state"], g["synced"]) for g in extra("past").games(s)]
    assert bytes(fs.files["/past.mk"]) == b"Sg0002     \n"
    s = boot(fs.reboot())
    assert [g["synced"] for g in extra("past").games(s)] == [False, True, False, False]
    assert s.unsynced() == 2 and s.unsynced(0) == 3     # the one in play is not synced either
    used, free = s.usage()
    assert used == sum(len(b) for b in logs.values())


def test_marks_fold_into_the_index_and_removals_leave_nothing():
    fs = FakeFS(capacity=512 * 4096)
    s, logs, g = finished_games(fs, 46)
    crcs = dict((g["id"], g["crc"]) for g in extra("past").games(s))
    for i in range(1, 44):
        assert extra("past").mark_synced(s, "g%04d" % i, crcs["g%04d" % i])
        assert extra("past").mark_synced(s, "g%04d" % i, crcs["g%04d" % i])  # again: nothing more written
    # 40 marks were folded into the index; 3 are left.
    assert len(fs.files["/past.mk"]) == 3 * 12 and len(fs.files["/past.idx"]) == 46 * 32
    assert bytes(fs.files["/past.idx"])[:32].endswith(b" 1\n")
    assert [g["id"] for g in extra("past").games(s) if g["synced"]] == ["g%04d" % i for i in range(1, 44)]
    # Room for a game: the oldest synced games go, the index says so.
    free = boot(fs.reboot()).usage()[1]
    s = boot(fs.reboot(), low=free + 3 * 4096)
    gone = s.make_room()
    assert gone == ["g0001", "g0002", "g0003"]
    assert [g["id"] for g in extra("past").games(s)][:2] == ["g0004", "g0005"] and s.count() == 44
    assert not any(p.startswith("/past/g000%d" % i) for p in fs.files for i in (1, 2, 3))
    s = boot(fs.reboot())
    assert s.count() == 44 and len(extra("past").games(s)) == 44
    # More marks after the removals: the count holds.
    for i in range(44, 47):
        extra("past").mark_synced(s, "g%04d" % i, crcs["g%04d" % i])
    games = extra("past").games(s)
    assert s.count() == 44 and len(games) == 44 and games[0]["id"] == "g0004"
    with pytest.raises((OSError, ValueError)):
        s.read("g0001", 0, 10)
    with pytest.raises(ValueError):
        extra("past").mark_synced(s, "g0001", crcs["g0001"])


def test_a_power_cut_anywhere_in_the_move_loses_nothing():
    fs = FakeFS()
    s, logs, g = finished_games(fs, 2)
    played(s, CLASSIC[2:], g)               # g0003 ends
    s.close()
    played(s, CLASSIC[:1])                  # g0004: g0003 waits for the archive
    logs["g0003"] = bytes(fs.files["/games/g0003.log"])
    logs["g0004"] = bytes(fs.files["/games/g0004.log"])
    want = [(g["id"], g["size"], g["crc"], g["state"]) for g in extra("past").games(s)]
    start = fs.spent
    idle(s)
    end = fs.spent
    assert "/past/g0003.log" in fs.files and end > start
    for cut in range(start, end + 1):
        flash = fs.at(cut)
        t = boot(flash)
        assert [(g["id"], g["size"], g["crc"], g["state"]) for g in extra("past").games(t)] == want, cut
        idle(t)                             # finished after the reboot
        assert [(g["id"], g["size"], g["crc"], g["state"]) for g in extra("past").games(t)] == want, cut
        assert sorted(p for p in flash.files if "/games/" in p and p.endswith(".log")) == ["/games/g0004.log"]
        assert len(flash.files["/past.idx"]) == 3 * 32, cut
        for gid, b in logs.items():
            assert t.read(gid, 0, 10 ** 6) == b


def test_a_line_cut_short_in_the_index_is_ignored_and_cut_off():
    fs = FakeFS()
    s, logs, g = finished_games(fs, 2)
    fs.files["/past.idx"] += b"g0003      00"      # a failed append's part of a line
    s = boot(fs.reboot())
    assert [g["id"] for g in extra("past").games(s)] == ["g0001", "g0002", "g0003"] and s.count() == 3
    played(s, CLASSIC[2:], s.resume()[0])
    s.close()
    played(s, CLASSIC[:1])
    idle(s)
    assert len(fs.files["/past.idx"]) == 3 * 32
    assert [g["id"] for g in extra("past").games(s)] == ["g0001", "g0002", "g0003", "g0004"]


def test_a_device_from_before_the_archive_moves_its_games_when_idle():
    fs = FakeFS()
    s = boot(fs)
    for _ in range(6):
        played(s, CLASSIC)
        s.close()                            # (no idle: all stay in games/, as old firmware kept them)
    played(s, CLASSIC[:1])
    before = [(g["id"], g["crc"]) for g in extra("past").games(s)]
    s = boot(fs.reboot())
    assert idle(s) >= 2                      # four a step, then the counts
    assert [p for p in fs.files if "/games/" in p and p.endswith(".log")] == ["/games/g0007.log"]
    assert [(g["id"], g["crc"]) for g in extra("past").games(s)] == before
