"""The engine refuses nonsense through every door (CPython only: hypothesis).

Every public call of the state API (``Game``: apply, apply_action,
apply_id, deal, restore, undo and the queries; ``Hand``: the same plus
apply_legal and side_of; the ``Rules``, ``Game`` and ``Hand`` constructors,
``game_from_header``, ``log.loads``) is fed random values of every type:
ints of any size and sign, floats (nan, inf), None, bools, text, bytes,
lists, dicts, and near misses (a legal id plus or minus a little, a legal
id as a float, a checkpoint with one field changed). Each example walks a
random game of a random variant in table or card mode and checks, after
every call:

* a refused call raises the engine's error only (``IllegalAction`` for
  actions; ``ValueError`` for rules, games and checkpoints; ``LogError``
  for logs): never TypeError, IndexError, AttributeError ...;
* a refused call leaves the state as it was: its log (``log.dumps``), its
  checkpoint, events and legal actions;
* an accepted call was a legal one, and the game it leaves replays from its
  own log to the same state.
"""

import copy
import math

from hypothesis import HealthCheck, given, settings, strategies as st

from euchre import Game, Hand, IllegalAction, Rules, log
from euchre import actions as A
from euchre.rules import MORE_VARIANTS, variant_names as _menu_names
from euchre.cardmode import shuffled_deck
from euchre.game import game_from_header
from euchre.logfile import loads
from helpers import Rand, fingerprint

def variant_names():
    """Every variant: the four of the menu and those for three, six and two players."""
    return _menu_names() + MORE_VARIANTS


SETTINGS = settings(max_examples=120, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

JUNK = st.one_of(
    st.integers(-3, 70), st.integers(0, 70000), st.integers(-2 ** 80, 2 ** 80),
    st.floats(allow_nan=True, allow_infinity=True), st.none(), st.booleans(),
    st.text(max_size=40), st.binary(max_size=8),
    st.sampled_from(["pass", "PASS", "order", "order alone", "call H", "up H", "up 2S", "won 1",
                     "tricks 3", "tricks 99", "9H", "deal", "deal 9H", "notrick none", "won ٣",
                     "reveal none", "partner AS", " ", "\x00", "order H alone best", "tricks 1_0"]),
    st.lists(st.integers(-3, 300), max_size=60), st.tuples(st.integers(), st.text(max_size=3)),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def near_misses(ids):
    """Values close to the legal ids: off by a little, or of another type."""
    out = [31, -1, 65535, 2 ** 13, 2 ** 31, -2 ** 63]
    for a in ids[:6]:
        out += [a + 1, a - 1, a + 32, a + 2048, a + 4096, -a, float(a), str(a), [a], a + 2 ** 64]
    return st.sampled_from(out)


def game_state(g):
    """What a refused call must leave alone."""
    return (log.dumps(g), g.checkpoint(), fingerprint(g), g.events(), g.event_count(),
            g.legal_actions(), g.current_player(), g.returns(), g.is_terminal(), list(g.players))


def queries(g):
    # Every query answers at any moment.
    g.current_player(), g.legal_actions(), g.is_terminal(), g.returns(), g.events()
    g.event_count(), g.checkpoint(), g.header(), g.standings(), g.winner_names()


def replays(g):
    """A game rebuilt from ``g``'s log is in the same state."""
    r, dropped = loads(log.dumps(g))
    assert not dropped and fingerprint(r) == fingerprint(g) and r.scores == g.scores


def legal_step(g, rng):
    # Move the game on by one legal event (a shuffled deal in card mode).
    if g.amending is not None:
        # (an amendment under way: its inputs, euchre.amend)
        from euchre.amend import legal_ids
        ids = legal_ids(g)
        g.apply_id(ids[rng.below(len(ids))])
    elif g.cards and g.hand.phase == 0:  # P_DEAL
        g.deal(shuffled_deck(g.rules, rng.below))
    else:
        ids = g.hand.legal_ids()
        g.apply_id(ids[rng.below(len(ids))])


def refused_or_legal(g, name, arg):
    """Call ``g.name(arg)``: a refusal must change nothing, an acceptance
    must have been legal. Returns True if accepted."""
    before = game_state(g)
    legal_ids = list(g.hand.legal_ids()) if not g.result else []
    legal_text = g.legal_actions()
    if g.amending is not None:
        # (an amendment under way: its inputs, euchre.amend)
        from euchre.amend import legal_ids as amend_ids
        legal_ids = amend_ids(g)
    # corrections: ``amend N`` for the hands amendable() lists
    for n in g.amendable():
        legal_ids.append(A.action(A.AMEND, n % 64, n // 64))
        legal_text = legal_text + ["amend %d" % n]
    fn = getattr(g, name)
    try:
        fn() if name == "undo" else fn(arg)
    except IllegalAction:
        assert name != "restore", "restore raises ValueError for a bad checkpoint"
        assert game_state(g) == before, "refused %s(%r) changed the game" % (name, arg)
        return False
    except ValueError as e:
        assert name == "restore" and not isinstance(e, IllegalAction), (name, arg, e)
        assert game_state(g) == before, "refused restore(%r) changed the game" % (arg,)
        return False
    if name == "apply_id":
        assert type(arg) is int and arg in legal_ids, "accepted apply_id(%r)" % (arg,)
    elif name in ("apply", "apply_action"):
        assert isinstance(arg, str), "accepted %s(%r)" % (name, arg)
        assert g.events()[-1] in legal_text or g.events()[-1].startswith("deal "), (name, arg)
    elif name == "deal":
        assert sorted(g._deals[-1]) == sorted(g.rules.deck), "accepted deal(%r)" % (arg,)
    elif name == "restore":
        assert g.checkpoint() == list(arg), "accepted restore(%r)" % (arg,)
    return True


def perturbed_checkpoints(ck):
    # The checkpoint with one field replaced, one dropped or one added.
    out = [ck, ck[:-1], ck + [0], tuple(ck), "x", None, 5, [], [0] * 50]
    for i in range(len(ck)):
        for bad in (-1, 99, "x", None, 1.0, True, [], 2 ** 70):
            c = list(ck)
            c[i] = bad
            out.append(c)
    return st.sampled_from(out)


@SETTINGS
@given(variant=st.sampled_from(variant_names()), cards=st.booleans(), seed=st.integers(1, 2 ** 31),
       data=st.data())
def test_every_game_call_refuses_nonsense_and_changes_nothing(variant, cards, seed, data):
    rng = Rand(seed)
    g = Game(Rules(variant, winning_score=5), dealer=seed % Rules(variant).num_players, cards=cards)
    restored = False
    for _ in range(25):
        queries(g)
        if not g.result and data.draw(st.booleans(), "progress"):
            legal_step(g, rng)
            continue
        name = data.draw(st.sampled_from(["apply", "apply_action", "apply_id", "apply_id", "deal",
                                          "restore", "undo"]), "call")
        if name == "restore":
            arg = data.draw(st.one_of(perturbed_checkpoints(g.checkpoint()), JUNK), "arg")
        elif name == "apply_id":
            arg = data.draw(st.one_of(near_misses(g.hand.legal_ids()), JUNK), "arg")
        elif name == "deal":
            deck = list(g.rules.deck)
            arg = data.draw(st.one_of(JUNK, st.just(deck + deck[:1]), st.just(deck[:-1] + [deck[0]]),
                                      st.just([float(c) for c in deck]),
                                      st.just(deck[:-1] + [deck[-1] + 256]),
                                      st.just(len(deck)), st.just(bytes(deck)), st.just(str(deck))), "arg")
        else:
            arg = data.draw(JUNK, "arg")
        if refused_or_legal(g, name, arg) and name == "restore":
            restored = True
        if not restored:
            replays(g)


def hand_state(h):
    """Every field of a hand but the rules, its hooks and the legal-id cache."""
    cls = type(h)
    slots = [s for c in cls.__mro__ for s in getattr(c, "__slots__", ())]
    return {s: copy.deepcopy(getattr(h, s, None)) for s in slots
            if s not in ("rules", "_legal", "_lg", "_do")}


@SETTINGS
@given(variant=st.sampled_from(variant_names()), cards=st.booleans(), seed=st.integers(1, 2 ** 31),
       data=st.data())
def test_every_hand_call_refuses_nonsense_and_changes_nothing(variant, cards, seed, data):
    rng = Rand(seed)
    rules = Rules(variant)
    h = Hand(rules, dealer=seed % rules.num_players, cards=cards)
    for _ in range(25):
        if h.is_terminal():
            break
        h.current_player(), h.legal_actions(), h.returns(), h.bidders_left(), h.active_seats()
        legal = list(h.legal_ids())
        if data.draw(st.booleans(), "progress"):
            if cards and h.phase == 0:
                h.deal(shuffled_deck(rules, rng.below))
            else:
                h.apply_legal(rng.below(len(legal)))
            continue
        name = data.draw(st.sampled_from(["apply_id", "apply_action", "apply_legal", "deal", "side_of"]),
                         "call")
        pool = near_misses(legal) if name == "apply_id" else st.integers(-3, 12)
        arg = data.draw(st.one_of(pool, JUNK), "arg")
        before = hand_state(h)
        try:
            out = getattr(h, name)(arg)
        except IllegalAction:
            assert hand_state(h) == before, "refused %s(%r) changed the hand" % (name, arg)
            continue
        if name == "side_of":
            assert type(arg) is int and 0 <= arg < h.n and out in (0, 1)
            assert hand_state(h) == before
        elif name == "apply_id":
            assert type(arg) is int and arg in legal, "accepted apply_id(%r)" % (arg,)
        elif name == "apply_legal":
            assert type(arg) is int and 0 <= arg < len(legal) and out == legal[arg], arg
        elif name == "deal":
            assert sorted(h.play.dealt) == sorted(rules.deck) and list(h.play.dealt) == list(arg)
        else:
            assert isinstance(arg, str), "accepted apply_action(%r)" % (arg,)


@SETTINGS
@given(variant=st.one_of(st.sampled_from(list(variant_names()) + ["three", "six", "two"]), JUNK),
       options=st.one_of(st.none(), JUNK),
       kw=st.dictionaries(st.sampled_from(["std", "winning_score", "joker", "jokers", "play_on", "farmers",
                                           "loner_lead", "min_rank", "march", "alone", "misdeal_passes",
                                           "raise_target", "no_late_loners", "lone_euchre_4", "same_dealer",
                                           "bogus"]),
                          JUNK, max_size=3),
       players=st.one_of(st.none(), JUNK, st.lists(st.one_of(st.text(max_size=4), JUNK), max_size=6)),
       dealer=st.one_of(st.integers(-2, 6), JUNK), header=st.one_of(JUNK, st.fixed_dictionaries(
           {"variant": st.one_of(st.sampled_from(variant_names()), JUNK), "players": JUNK, "dealer": JUNK})))
def test_constructors_refuse_nonsense_with_value_error(variant, options, kw, players, dealer, header):
    rules = None
    try:
        rules = Rules(variant, options, **kw)
    except ValueError:
        pass
    try:
        Game(rules if rules is not None else variant, players, dealer)
    except ValueError:
        pass
    try:
        Hand(rules if rules is not None else variant, dealer)
    except ValueError:
        pass
    try:
        game_from_header(header)
    except ValueError:
        pass


@SETTINGS
@given(text=st.one_of(st.text(max_size=200), st.sampled_from(["", "\n", "{}", "[]"])),
       seed=st.integers(1, 2 ** 31), cut=st.integers(0, 400), junk=st.text(max_size=5))
def test_log_loads_refuses_garbage_with_log_error(text, seed, cut, junk):
    # Random text, and a real log torn or with junk spliced in: LogError or
    # a game, nothing else.
    rng = Rand(seed)
    g = Game(Rules("classic", winning_score=3))
    for _ in range(rng.below(30)):
        if g.result:
            break
        legal_step(g, rng)
    good = log.dumps(g)
    for t in (text, good[:cut], good[:cut] + junk + good[cut:]):
        try:
            loads(t)
        except log.LogError:
            pass


def test_nan_and_infinite_ids_are_refused():
    # (floats that compare unequal to themselves, or to every int)
    g = Game(Rules("classic"))
    for x in (math.nan, math.inf, -math.inf, 1e300):
        before = game_state(g)
        try:
            g.apply_id(x)
        except IllegalAction as e:
            assert "not an action id" in str(e)
        else:
            assert False, x
        assert game_state(g) == before
