# A club night's round on the device (bower.club, host/CLUB.md), driven by
# key presses on the real flash store: a pushed setup shows on the home
# menu, the round starts from it with the night's scoring and a round
# header, ends by itself after its hands (or when time is called between
# hands), is accepted by the other side in the log, shows where everyone
# goes next, and comes back exactly after a reboot at every input.

import sys
import tempfile

sys.path.insert(0, "tests/firmware")

import pytest

import uikit
from uikit import INFO, Driver, text
from bower.store import Store
from bower.ui import App
from bower import keys as K
from euchre import log as L
from euchre.logfile import read_lines, split_lines

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def setup(**kw):
    d = {"night": "fri-1a2b", "table": 3, "round": 2, "tables": 5, "move": "progressive",
         "hands": 4, "minutes": 0, "scoring": {"loner": 4, "set_loner": 2, "renege": 2},
         "next": [0, 0, 0, 0], "players": list(PLAYERS)}
    d.update(kw)
    return d


def boot(root):
    return uikit.boot(root, roster=["Ann", "Bob", "Cy", "Di", "Eve"])


def log_of(d):
    with open(d.store.games_path + d.store.gid + ".log") as f:
        return f.read()


def start(d, **kw):
    # The round of ``setup(**kw)`` pushed, then started from the home screen.
    d.store.set_club(setup(**kw))
    d.app.home()
    d.choose("club")
    assert d.top().title == "Club fri-1a2b"
    d.choose("start")


# Four hands (dealers N, E, S, W): S orders and N/S make it, S marches
# alone, everyone passes, S orders and N/S are euchred.
HANDS = ["up H", "pass", "order", "tricks 3",
         "up S", "order alone", "tricks 5",
         "up D", "all pass", "all pass",
         "up C", "pass", "pass", "order", "tricks 2"]


def play(d, events):
    for e in events:
        if e == "all pass":
            d.choose(label="all pass")
        else:
            d.enter(e)


def test_no_club_row_until_a_round_is_pushed():
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        assert "club" not in [v for _, v in d.rows()]
        d.store.set_club(setup())
        d.app.home()
        assert "club" in [v for _, v in d.rows()]


def test_a_round_plays_ends_by_itself_and_is_accepted_in_the_log():
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        start(d, scoring={"loner": 5, "set_loner": 2, "renege": 2})
        g = d.app.game
        assert g.players == PLAYERS and g.first_dealer == 0
        assert "Hand 1 of 4" in text(d)
        play(d, HANDS)
        # N/S made (+1), N/S lone march worth the night's 5, thrown in,
        # N/S euchred (E/W +2)
        assert g.scores == [6, 2, 6, 2] and g.counted == 4 and g.result
        s = text(d)
        assert "Round 2 over" in s and "OK: E/W accepts" in s
        d.press(K.OK)
        assert g.accepted
        s = text(d)
        assert "Next round" in s
        # progressive, table 3 of 5: winners N/S up to 2, losers down to 4
        assert "Ann      T2" in s and "Bob      T4" in s and "Cy       T2" in s
        header, events, dropped = read_lines(split_lines(log_of(d)))
        assert header["club"] == {"v": 1, "night": "fri-1a2b", "table": 3, "round": 2, "hands": 4,
                                  "minutes": None, "scoring": {"loner": 5, "set_loner": 2, "renege": 2}}
        assert header["options"]["round_hands"] == 4 and header["options"]["lone_march"] == 5
        assert events[-1][1] == "accept"
        replayed, _ = L.loads(log_of(d))
        assert replayed.accepted and replayed.scores == g.scores
        # OK: home, the setup moved on to the next round at this table
        d.press(K.OK)
        assert d.top().title == "Bower"
        assert d.store.club()["round"] == 3


def test_a_correction_after_acceptance_stays_in_the_log():
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        start(d)
        play(d, HANDS)
        d.press(K.OK)                       # accepted
        d.press(K.BACK_LONG)                # undo: the acceptance is taken back
        assert not d.app.game.accepted and "OK: E/W accepts" in text(d)
        d.press(K.BACK_LONG)                # and the last hand's tricks
        d.enter("tricks 3")                 # E/W made it after all
        d.press(K.OK)
        records = [L.decode_line(x, i + 1) for i, x in enumerate(log_of(d).splitlines(True))][1:]
        assert records[-5:] == ["accept", "undo", "undo", "tricks 3", "accept"]


def test_fixed_and_partners_movements_name_the_next_tables():
    def next_tables(d, **kw):
        # A round of the setup ``kw`` played and accepted: its last screen.
        start(d, **kw)
        play(d, HANDS)
        d.press(K.OK)
        s = text(d)
        d.press(K.OK)
        return s
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        s = next_tables(d, move="fixed")
        # N stays, E up 1, S down 1, W up 2 (modulo 5 tables), seats kept
        assert "Ann      T3 N" in s and "Bob      T4 E" in s and "Cy       T2 S" in s and "Di       T5 W" in s
        s = next_tables(d, move="partners", round=4, next=[1, 0, 2, 5])
        assert "Ann      T1" in s and "Bob      T?" in s and "T?, seats: board" in s and "Di       T5" in s


def test_a_minutes_round_ends_between_hands_when_time_is_called():
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        start(d, hands=0, minutes=20)
        g = d.app.game
        d.press(K.OK_LONG)
        assert "end" not in [v for _, v in d.rows()]     # nothing played yet
        d.choose("game")
        play(d, HANDS[:7])
        d.press(K.OK_LONG)
        d.choose("end")
        assert "End round 2?" in text(d)
        d.press(K.OK)
        assert g.result and g.accepted and g.counted == 2
        assert "Next round" in text(d)
        assert L.loads(log_of(d))[0].accepted


def test_reboot_at_every_input_of_a_round_brings_back_the_same_screen():
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        start(d)
        steps = HANDS + ["OK", "BACK_LONG", "OK", "OK"]
        for i, e in enumerate(steps):
            if e in ("OK", "BACK_LONG"):
                d.press(getattr(K, e))
            elif e == "all pass":
                d.choose(label="all pass")
            else:
                d.enter(e)
            if i == len(steps) - 1:
                break     # home: the round is closed
            d.now += 5000
            d.app.tick(d.now)   # (the note "undone" gone)
            before = text(d)
            d = boot(root)
            assert text(d) == before, (i, e)
        assert d.top().title == "Bower" and d.store.club()["round"] == 3


@pytest.mark.parametrize("bad", [
    {"night": "a b"}, {"table": 6}, {"round": 0}, {"move": "howell"}, {"hands": 0},
    {"minutes": 10}, {"scoring": {"loner": 3, "set_loner": 2, "renege": 2}}, {"next": [0, 0, 0]},
    {"players": ["Ann", "Ann", "Cy", "Di"]}, {"players": ["Ann", "Bob", "Cy", "ninechars"]},
])
def test_a_bad_setup_is_refused_and_the_old_one_kept(bad):
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        d.store.set_club(setup())
        with pytest.raises(ValueError):
            d.store.set_club(setup(**bad))
        assert d.store.club() == setup()


def test_a_minutes_round_shows_the_time_left_by_the_hosts_clock():
    now = [1763700000]
    info = dict(INFO, time=lambda: now[0])

    def boot_timed(root):
        store = Store(root, device=INFO["device"])
        return Driver(App(store, info), store)
    with tempfile.TemporaryDirectory() as root:
        d = boot_timed(root)
        assert "20-minute round" not in text(d)
        d.store.set_clock_offset(3600)                # the host set the clock
        start(d, hands=0, minutes=20)
        assert "20 min left" in text(d)
        play(d, HANDS[:4])
        now[0] += 7 * 60 + 5
        d = boot_timed(root)                          # resumed: the start comes from the header
        d.app.ack_hand()
        assert "13 min left" in text(d)
        now[0] += 13 * 60
        d.app.show_game()
        assert "Time! End: menu" in text(d)
        d.store.set_clock_offset(0)                   # never set: no clock to go by
        d = boot_timed(root)
        d.app.ack_hand()
        assert "20-minute round" in text(d)


def test_a_setup_of_any_shape_is_refused_with_a_value_error_or_kept_whole():
    from hypothesis import given, settings, strategies as st
    from bower.clubsetup import check
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=40))
    value = st.recursive(leaf, lambda c: st.one_of(st.lists(c, max_size=5),
                                                   st.dictionaries(st.text(max_size=12), c, max_size=5)),
                         max_leaves=12)
    good = setup()

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st.dictionaries(st.sampled_from(sorted(good) + ["x"]), value, max_size=12), st.booleans())
    def run(changes, over_good):
        d = dict(good, **changes) if over_good else changes
        try:
            assert check(d) is d
        except ValueError:
            return
        # accepted: every field as the device needs it
        assert 1 <= d["table"] <= d["tables"] <= 64 and d["move"] in ("progressive", "fixed", "partners")
        assert len(d["players"]) == 4 and (d["hands"] == 0) != (d["minutes"] == 0)
    run()


def test_the_round_menu_forgets_the_club_round():
    with tempfile.TemporaryDirectory() as root:
        d = boot(root)
        d.store.set_club(setup())
        d.app.home()
        d.choose("club")
        d.choose("forget")
        assert d.top().title == "Bower" and "club" not in [v for _, v in d.rows()]
        assert d.store.club() is None and boot(root).store.club() is None
