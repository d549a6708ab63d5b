"""``bower import`` of other tools' EGN files, in the shapes EGN's own
examples come in (NextSuit-Labs/euchre-game-notation, examples/): no
``playerCards``, a starting score other than 0-0, version 1.0 with its
snake_case keys, packed (condensed) deals.

The fixtures are Bower's own games, exported with ``egn.from_log`` and then
transformed into those shapes (the repository's files are not copied here),
so every expected score and every hand is known from the game itself:

* without ``playerCards``, each player's cards come back from the tricks
  (EGN's lead rules say who played what) plus the dealer's ``discard``: a
  card-mode game whose every hand is the original's;
* where a card cannot be known (the lone maker's partner's hand, a pick-up
  without its discard), the game goes in as a table-mode game: the bids and
  who took each trick, every hand's points the original's; the import says
  so in one line;
* ``initialScore`` is where the scores begin (the engine's ``start``);
* 1.0 files read like 1.6 ones (``kitty`` may even tell the discard);
* whatever contradicts itself is refused in one line naming the deal.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre import Game, Rules
from euchre import log as elog
from euchre.bot import choose
from euchre.cardmode import shuffled_deck
from euchre.cards import card_name
from euchre.hand import P_DEAL

from bower_host import egn
from bower_host.db import Library, replay
from bower_host.importer import egnfile
from bower_host.importer.common import ImportProblem

from test_exports import pack

NAMES = ["Ann", "Bob", "Cy", "Di"]


def bot_game(seed, start=None, **options):
    """A Classic card-mode game the bot plays to the end (``start``: per seat)."""
    rules = Rules("classic", **options)
    rng = random.Random(seed)
    g = Game(rules, NAMES, dealer=rng.randrange(4), cards=True, **({"start": start} if start else {}))
    while not g.is_terminal():
        if g.hand.phase == P_DEAL:
            g.deal(shuffled_deck(rules, rng.randrange))
        else:
            g.apply_id(choose(g.hand))
    return g


def export(g):
    return json.loads(egn.dumps(egn.from_log(elog.dumps(g))))


def hands_of(log_text):
    """Per finished hand: (each seat's dealt cards as a set, maker, trump,
    alone, tricks per seat, points)."""
    out = []
    for rec in replay(log_text).hands:
        h = rec.hand
        dealt = [frozenset(card_name(c) for c in h.play.dealt[s * 5:(s + 1) * 5]) for s in range(4)] \
            if h.play else None
        out.append((dealt, h.maker, h.trump, h.alone, list(h.tricks), list(h.points)))
    return out


def results_of(log_text):
    """``hands_of`` without the cards (what a table-mode game keeps)."""
    return [x[1:] for x in hands_of(log_text)]


def sat_out(deal):
    o = egn.rules.deal_outcome(deal, {})
    return o.sit_out


def without_cards(doc, keep_sitting_out=False, keep_discard=True):
    """``doc`` without playerCards (but for the seats that sat out, the shape
    EGN's examples use) and, unless ``keep_discard``, without discards."""
    doc = json.loads(json.dumps(doc))
    for d in doc["deals"]:
        st_ = d["initialState"]
        out = sat_out(d)
        if keep_sitting_out and out:
            st_["playerCards"] = [h if s in out else [] for s, h in enumerate(st_["playerCards"])]
        else:
            st_.pop("playerCards", None)
        if not keep_discard:
            d["phases"][0].pop("discard", None)
    return doc


def to_v10(doc, kitties=None):
    """``doc`` as EGN 1.0 wrote it: version "1.0", snake_case player_cards and
    calls_annotations, phases numbered from 1, ``TRICK_PLAY_PHASE``, a
    ``kitty`` (``kitties``: per deal the three cards under the upcard, else
    unknown) and ``initialLead``."""
    doc = json.loads(json.dumps(doc))
    doc["version"] = "1.0"
    doc["file_type"] = doc.pop("fileType")
    md = doc["metadata"]
    if "gameId" in md:
        md["match_id"] = md.pop("gameId")
    for n, d in enumerate(doc["deals"]):
        st_ = d["initialState"]
        if "playerCards" in st_:
            st_["player_cards"] = st_.pop("playerCards")
        st_["kitty"] = list(kitties[n]) if kitties else ["", "", ""]
        o = egn.rules.deal_outcome(d, md.get("ruleset"))
        for k, p in enumerate(d["phases"]):
            p["phaseNumber"] = k + 1
            if p["type"] == "TRICK_PLAY":
                p["type"] = "TRICK_PLAY_PHASE"
                p["initialLead"] = o.first_lead
            elif "callAnnotations" in p:
                p["calls_annotations"] = p.pop("callAnnotations")
    return doc


def kitties_of(g):
    """Per hand of ``g``: the three cards under the upcard, EGN names."""
    return [[egn.cards.egn_card(c) for c in rec.hand.play.dealt[21:24]] for rec in replay(elog.dumps(g)).hands]


def load(doc):
    return egnfile.from_egn(doc)


def imported(doc):
    it = load(doc)
    return it, replay(it.raw.decode())


@pytest.fixture(scope="module")
def game():
    """A seeded bot game with pick-ups, a lone hand and a round-2 call."""
    g = bot_game(14)
    hs = [rec.hand for rec in replay(elog.dumps(g)).hands]
    assert any(h.alone for h in hs) and any(h.picked_up for h in hs) and any(not h.picked_up for h in hs)
    return g


# ----- no playerCards ---------------------------------------------------------------------------

def test_no_player_cards_every_hand_comes_back_from_the_tricks(game):
    doc = without_cards(export(game), keep_sitting_out=True)
    assert all(not any(d["initialState"].get("playerCards") or [[]]) or sat_out(d) for d in doc["deals"])
    it, rp = imported(doc)
    assert it.note == "" and rp.game.cards
    assert hands_of(it.raw.decode()) == hands_of(elog.dumps(game))
    assert rp.game.scores == game.scores and rp.game.result == game.result
    assert egn.rules.final_score(doc) == game.scores[:2]


def test_unknown_cards_go_in_as_the_table_record_and_say_why(game, bower, tmp_path):
    doc = without_cards(export(game), keep_discard=False)
    it, rp = imported(doc)
    assert not rp.game.cards and "table-mode" in it.note and "deal " in it.note
    assert results_of(it.raw.decode()) == results_of(elog.dumps(game))
    assert rp.game.scores == game.scores and rp.game.result == game.result
    f = tmp_path / "no-cards.egn"
    f.write_text(json.dumps(doc))
    rc, out, err = bower("import", f, "--db", tmp_path / "lib.sqlite3")
    assert rc == 0 and err == "", err
    note = [ln for ln in out.splitlines() if "table-mode" in ln]
    assert len(note) == 1 and "is not recorded" in note[0]
    with Library(tmp_path / "lib.sqlite3") as lib:
        [g] = lib.games()
        assert g["mode"] == "table" and g["scores"] == game.scores


def test_the_lone_makers_partner_unrecorded_is_table_mode_naming_the_seat(game):
    doc = without_cards(export(game))          # discards kept: only the lone hands are unknown
    it, rp = imported(doc)
    lone = next(i for i, d in enumerate(doc["deals"]) if sat_out(d))
    assert not rp.game.cards and f"deal {lone}: seat " in it.note and "sat out" in it.note
    assert results_of(it.raw.decode()) == results_of(elog.dumps(game))


def test_a_game_in_progress_mid_deal_goes_in_as_far_as_it_was_played(game):
    doc = without_cards(export(game))
    last = doc["deals"][-1]
    last["phases"][1]["tricks"] = last["phases"][1]["tricks"][:2]     # a game stopped after 2 tricks
    doc["metadata"].pop("finalScore")
    it, rp = imported(doc)
    g = rp.game
    assert not g.is_terminal() and g.hand.tricks_played == 2
    assert g.scores == egn.rules.final_score(doc) + egn.rules.final_score(doc)


# ----- a starting score ----------------------------------------------------------------------------

def test_a_game_starting_at_7_4_exports_and_imports_its_start(bower, tmp_path):
    g = bot_game(3, start=[7, 4, 7, 4])
    doc = export(g)
    assert doc["metadata"]["initialScore"] == [7, 4]
    assert egn.rules.final_score(doc) == doc["metadata"]["finalScore"] == g.scores[:2]
    for d in (doc, without_cards(doc, keep_sitting_out=True), without_cards(doc, keep_discard=False)):
        it, rp = imported(d)
        assert rp.header["start"] == [7, 4, 7, 4] and rp.game.scores == g.scores
        assert results_of(it.raw.decode()) == results_of(elog.dumps(g))
    f = tmp_path / "start.egn"
    f.write_text(json.dumps(without_cards(doc, keep_discard=False)))
    db = tmp_path / "lib.sqlite3"
    rc, out, err = bower("import", f, "--db", db)
    assert rc == 0, err
    rc, out, err = bower("export", "-f", "egn", "--table-results", "--db", db)
    assert rc == 0 and json.loads(out)["metadata"]["initialScore"] == [7, 4], err
    rc, out, err = bower("export", "-f", "json", "--db", db)
    j = json.loads(out)
    assert j["games"][0]["initial_scores"] == [7, 4, 7, 4]
    j["games"][0].pop("log")                  # rebuilt from its fields and events alone
    (tmp_path / "x.json").write_text(json.dumps(j))
    rc, out, err = bower("import", tmp_path / "x.json", "--db", tmp_path / "other.sqlite3")
    assert rc == 0, err


@pytest.mark.parametrize("score, why", [
    ([10, 3], "at or past its target of 10"),
    ([3, 12], "at or past its target of 10"),
    ([7], "not two whole numbers"),
    ("7-4", "not two whole numbers"),
    ([7.0, 4], "not two whole numbers"),
])
def test_a_start_that_cannot_be_is_refused_with_the_reason(game, score, why):
    doc = without_cards(export(game))
    doc["metadata"]["initialScore"] = score
    with pytest.raises(ImportProblem, match=why):
        load(doc)


def test_a_start_that_ends_the_game_early_says_where(game):
    doc = without_cards(export(game))
    doc["metadata"]["initialScore"] = [9, 9]
    doc["metadata"].pop("finalScore")
    with pytest.raises(ImportProblem, match=r"deal \d+: the game was already over \(\d+-\d+ after deal"):
        load(doc)


# ----- version 1.0 ------------------------------------------------------------------------------

def test_version_1_0_reads_like_1_6(game):
    doc = without_cards(export(game), keep_sitting_out=True)
    old = to_v10(doc)
    assert "fileType" not in old and "player_cards" in json.dumps(old)
    it, rp = imported(old)
    assert rp.game.cards and hands_of(it.raw.decode()) == hands_of(elog.dumps(game))


def test_a_1_0_kitty_tells_the_discard(game):
    doc = without_cards(export(game), keep_sitting_out=True, keep_discard=False)
    assert not imported(doc)[1].game.cards            # the discards are unknown...
    old = to_v10(doc, kitties_of(game))
    it, rp = imported(old)                              # ...but the kitty tells them
    assert rp.game.cards and hands_of(it.raw.decode()) == hands_of(elog.dumps(game))


def test_a_1_0_file_read_from_disk_by_bower_import(game, bower, tmp_path):
    f = tmp_path / "old.egn"
    f.write_text(json.dumps(to_v10(without_cards(export(game), keep_discard=False))))
    rc, out, err = bower("import", f, "--db", tmp_path / "lib.sqlite3")
    assert rc == 0 and "new egn/egn-" in out, err


@pytest.mark.parametrize("version", ["1.0", "1.0.0", "1.1", "1.1.0", "1.2", "1.5.3", "1.6"])
def test_every_1_x_version_reads(game, version):
    doc = without_cards(export(game), keep_discard=False)
    doc["version"] = version
    assert load(doc).raw


@pytest.mark.parametrize("version", ["2.0", "0.9", "1.7", "1.10", "1.6\n", "1", "", None, 1.6])
def test_other_versions_are_refused_naming_what_is_read(game, version):
    doc = without_cards(export(game))
    doc["version"] = version
    with pytest.raises(ImportProblem, match=r"EGN version .*: this bower reads 1\.0 to 1\.6$"):
        load(doc)


def test_initial_lead_against_egns_lead_rule_is_refused(game):
    old = to_v10(without_cards(export(game)))
    play = old["deals"][0]["phases"][1]
    play["initialLead"] = (play["initialLead"] + 1) % 4
    with pytest.raises(ImportProblem, match="deal 0: initialLead says seat"):
        load(old)


# ----- packed deals ------------------------------------------------------------------------------

@pytest.mark.parametrize("version", [1, 2, 3])
def test_packed_deals_without_player_cards(game, version):
    doc = without_cards(export(game), keep_sitting_out=True)
    if version == 3:
        for d in doc["deals"]:
            d["initialState"].setdefault("playerCards", [[], [], [], []])
    doc["deals"] = [pack(d, version) for d in doc["deals"]]
    it, rp = imported(doc)
    assert rp.game.scores == game.scores
    if version == 3:          # V3 carries the discards and the partial playerCards
        assert rp.game.cards and hands_of(it.raw.decode()) == hands_of(elog.dumps(game))
    else:
        assert not rp.game.cards and results_of(it.raw.decode()) == results_of(elog.dumps(game))


# ----- refusals: the file contradicts itself --------------------------------------------------------

def golden(**md):
    """A hand-built file: one deal (dealer 0 turns up Js, seat 3 orders, the
    dealer discards 9c; seat 0's side euchres the makers 2-0), no playerCards."""
    deal = {"dealNumber": 0, "initialState": {"dealer": 0, "upCard": "Js"},
            "phases": [{"type": "EUCHRE_BIDDING", "calls": ["Pass", "Pass", "Order"], "isAlone": False,
                        "discard": "9c"},
                       {"type": "TRICK_PLAY", "tricks": [["Ac", "9h", "9s", "Kc"], ["Ts", "Js", "9d", "Th"],
                                                         ["Jc", "Td", "Jh", "Ah"], ["Tc", "Jd", "Kd", "Kh"],
                                                         ["Qc", "Qd", "Ad", "Qh"]]}]}
    meta = {"players": list(NAMES), "initialScore": [0, 0], "ruleset": {"std": False}}
    meta.update(md)
    return {"fileType": "Euchre Game Notation", "version": "1.6", "metadata": meta, "deals": [deal]}


def test_the_hand_built_file_imports_in_card_mode():
    it, rp = imported(golden(initialScore=[7, 4]))
    assert rp.game.cards and rp.game.scores == [9, 4, 9, 4]
    assert hands_of(it.raw.decode())[0][0] == [frozenset(x.upper().split()) for x in
                                               ("9c Tc Jc Qc Kc", "Ac 9d Td Jd Qd", "Kd Ad 9h Th Jh",
                                                "Qh Kh Ah 9s Ts")]


def test_nines_as_n_and_capital_suits_are_the_same_cards():
    doc = golden()
    doc["deals"][0]["initialState"]["upCard"] = "JS"
    _tricks(doc)[0][1] = "Nh"                 # 9h
    _tricks(doc)[1][3] = "TH"
    it, rp = imported(doc)
    assert rp.game.cards and hands_of(it.raw.decode()) == hands_of(imported(golden())[0].raw.decode())


def _tricks(doc):
    return doc["deals"][0]["phases"][1]["tricks"]


def _swap_up(doc):
    t = _tricks(doc)[1]
    t[1], t[2] = t[2], t[1]          # seat 1 plays Js, the upcard the dealer picked up


def _renege(doc):
    t = _tricks(doc)
    t[0][0], t[3][1] = t[3][1], t[0][0]     # seat 1 leads Jd: seat 2 shows 9h, later plays Kd


def _twice(doc):
    _tricks(doc)[4][3] = "Ac"


def _short_then_more(doc):
    d = json.loads(json.dumps(doc["deals"][0]))
    d["initialState"]["dealer"] = 1
    _tricks(doc)[:] = _tricks(doc)[:3]
    doc["deals"].append(d)


def _stops_scored(doc):
    _tricks(doc)[:] = _tricks(doc)[:4]       # the defenders have 3 tricks already


def _discard_played(doc):
    doc["deals"][0]["phases"][0]["discard"] = "Kc"


def _over(doc):
    doc["metadata"]["initialScore"] = [8, 0]
    d = json.loads(json.dumps(doc["deals"][0]))
    d["initialState"]["dealer"] = 1
    doc["deals"].append(d)


def _bad_card(doc):
    _tricks(doc)[0][0] = "Zc"


def _off_deck(doc):
    _tricks(doc)[0][1] = "8h"


@pytest.mark.parametrize("change, why", [
    (_swap_up, "deal 0: seat 1 played Js, the upcard, which the dealer picked up"),
    (_renege, r"deal 0, trick 1: seat 2 played 9h on a Jd lead but held Kd \(a renege"),
    (_twice, "deal 0: Ac is played twice"),
    (_short_then_more, "deal 0: only 3 of its 5 tricks are played, and deals follow it"),
    (_stops_scored, r"deal 0: play stops early; EGN's rules score it \[2, 0\] already"),
    (_discard_played, "deal 0: the dealer discarded Kc and then played it"),
    (_over, r"deal 1: the game was already over \(10-0 after deal 0, playing to 10\)"),
    (_bad_card, "the card 'Zc' is not a known card"),
    (_off_deck, "deal 0: 8h is not in the deck Bower deals"),
])
def test_a_file_that_contradicts_itself_is_refused_in_one_line(change, why):
    doc = golden()
    change(doc)
    with pytest.raises(ImportProblem, match=why) as e:
        load(doc)
    assert "\n" not in str(e.value)


def test_refusals_through_bower_import_store_nothing(bower, tmp_path):
    files = {"v2.egn": dict(golden(), version="2.0"), "start.egn": golden(initialScore=[10, 0])}
    why = {"v2.egn": "this bower reads 1.0 to 1.6", "start.egn": "at or past its target",
           "upcard.egn": "the upcard", "renege.egn": "a renege", "over.egn": "the game was already over"}
    for name, change in (("upcard.egn", _swap_up), ("renege.egn", _renege), ("over.egn", _over)):
        doc = golden()
        change(doc)
        files[name] = doc
    for name, doc in files.items():
        (tmp_path / name).write_text(json.dumps(doc))
    db = tmp_path / "lib.sqlite3"
    rc, out, err = bower("import", *[tmp_path / n for n in files], "--db", db)
    lines = err.splitlines()
    assert rc == 1 and out == "" and "Traceback" not in err
    assert len(lines) == len(files) + 1
    for name in files:
        [line] = [ln for ln in lines if ln.startswith(f"bower: {tmp_path / name}: ")]
        assert why[name] in line, line
    with Library(db) as lib:
        assert lib.count() == 0


def test_a_stopped_last_deal_not_yet_scored_goes_in_in_progress():
    doc = golden()
    _tricks(doc)[:] = _tricks(doc)[:3]
    it, rp = imported(doc)
    assert not rp.game.cards and rp.game.hand.tricks_played == 3 and rp.game.scores == [0, 0, 0, 0]


# ----- hostile input -----------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.floats(allow_nan=True)
    | st.sampled_from(["", "Js", "B", "Nh", "Pass", "Order", "s", "X", "1.0", "TRICK_PLAY", "TRICK_PLAY_PHASE"])
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)


def _paths(x, at=()):
    yield at
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, at + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, at + (i,))


BASES = [golden(), to_v10(golden()), golden(initialScore=[7, 4])]
PATHS = [(b, p) for b in range(len(BASES)) for p in _paths(BASES[b]) if p]


@pytest.mark.parametrize("dealer", [False, True, 7, -1, "0", 1.0, None])
def test_a_first_dealer_that_is_not_a_seat_is_refused(dealer):
    # false is 0 to Python but not a seat to the engine (found by the test below).
    for base in BASES:
        doc = json.loads(json.dumps(base))
        doc["deals"][0]["initialState"]["dealer"] = dealer
        with pytest.raises(ImportProblem, match=r"^deal 0: the dealer .* is not a seat from 0 to 3$"):
            egnfile.from_egn(doc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(PATHS) - 1), JSON_VALUES), min_size=1, max_size=3))
def test_hostile_files_import_or_are_refused_never_crash(changes):
    doc = json.loads(json.dumps(BASES[PATHS[changes[0][0]][0]]))
    for n, value in changes:
        path = PATHS[n][1]
        node = doc
        try:
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        it = egnfile.from_egn(doc)
    except ImportProblem as e:
        assert str(e) and "\n" not in str(e)
        return
    g = replay(it.raw.decode()).game         # what is stored replays
    assert g.players == NAMES or len(g.players) == 4
