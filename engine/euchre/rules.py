# Variants as validated data.
#
# ``VARIANTS`` holds the four variants of ``RULES.md`` as plain dicts; a
# ``Rules`` object is one variant plus the players' option choices, checked in
# the constructor and turned into lookup tables (deck, trump order) once. Option
# names follow the Euchre Game Notation where it has one (``std``,
# ``winning_score``, ``canadian``, ``loner_lead``, ``defend_alone``,
# ``farmers``, ``partners_best``, ``joker``, ``num_players``, ``min_rank``).
#
# >>> r = Rules("classic", std=True)
# >>> r.kitty, r.std, len(r.deck)
# (4, True, 24)
# >>> find_variant("5").name
# 'five'

from euchre.cards import (HIGH_JOKER, LOW_JOKER, NO_SUIT, NUM_CARDS, RJ,
                          make_card, parse_card, rank_of, suit_of)

_B = (False, True)
# Option name -> allowed values (None: a whole number from 1 to 99). Labels
# for screens are in euchre.notation.
OPTIONS = {
    "winning_score": None, "std": _B, "canadian": _B,
    "loner_lead": ("LEFT_OF_DEALER", "LEFT_OF_LONER"),
    "defend_alone": _B, "farmers": _B, "farmers_nines_only": _B,
    "farmers_no_call": _B, "partners_best": _B, "ace_no_face": _B,
    "joker": _B, "renege_deduct": _B, "jokers": _B, "four_eights": _B,
    "alternate_ending": _B, "play_on": _B,
}

# What every variant has unless it says otherwise.
_BASE = {
    "num_players": 4, "teams": True, "min_rank": 9, "extra_cards": (),
    "jokers_in_deck": 0, "hand_size": 5, "packets": (2, 3), "alone": True,
    "call_partner": "", "perm_upcard": "", "always_stuck": False,
    "throw_in": False, "needs_trick": False, "twos_and_threes": False,
    "discard_before_call": False, "scoring": "team", "renege": "side",
    "end": "first_to",
}

# Each variant: how it differs from _BASE, its score table and the options
# players may set, with their defaults. Sources are the seeds in RULES.md.
VARIANTS = {
    # 002 (second part), 003, 004
    "classic": {
        "title": "Classic Euchre", "aliases": ("euchre", "4", "standard", "four"),
        "perm_upcard": "dealer_names",
        "score": {"make": 1, "march": 2, "alone_make": 1, "alone_march": 4,
                  "best_march": 3, "euchre": 2, "defend_euchre": 4,
                  "renege": 2, "renege_alone": 4},
        "options": {"winning_score": 10, "std": False, "canadian": False,
                    "loner_lead": "LEFT_OF_DEALER", "defend_alone": False,
                    "farmers": False, "farmers_nines_only": False,
                    "farmers_no_call": False, "partners_best": False,
                    "ace_no_face": False, "joker": False,
                    "renege_deduct": False},
    },
    # 000
    "five": {
        "title": "Five-Handed Euchre", "aliases": ("5", "five-handed", "fivehanded"),
        "num_players": 5, "teams": False, "extra_cards": ("8S", "8H", "8D"),
        "call_partner": "not_permanent", "perm_upcard": "dealer_names_or_turns",
        "always_stuck": True, "throw_in": True, "needs_trick": True,
        "scoring": "called", "renege": "offender", "end": "lead_by_one",
        "score": {"make": 1, "march": 2, "alone_make": 1, "alone_march": 4,
                  "unpartnered_march": 2, "euchre": 2,
                  "renege": 2, "renege_alone": 4},
        "options": {"winning_score": 10, "jokers": False, "four_eights": False,
                    "alternate_ending": False},
    },
    # 001
    "callpartner": {
        "title": "Call-Your-Partner", "aliases": ("cyp", "call-your-partner", "call"),
        "num_players": 5, "teams": False, "min_rank": 8,
        "call_partner": "not_trump", "discard_before_call": True,
        "scoring": "called", "renege": "offender", "end": "highest",
        "score": {"make": 1, "march": 2, "alone_make": 1, "alone_march": 5,
                  "unpartnered_march": 5, "euchre": 2,
                  "renege": 2, "renege_alone": 4},
        "options": {"winning_score": 10, "std": False, "play_on": False},
    },
    # 002 (first part)
    "ultimate": {
        "title": "Ultimate Euchre", "aliases": ("54", "full-deck", "fulldeck"),
        "min_rank": 2, "jokers_in_deck": 2, "hand_size": 11,
        "packets": (2, 1, 2, 2, 1, 2, 1), "alone": False,
        "perm_upcard": "orderer_names", "always_stuck": True,
        "twos_and_threes": True,
        "score": {"make": 5, "march": 7, "euchre": 7,
                  "renege": 7, "renege_alone": 7},
        "options": {"winning_score": 35},
    },
}

_ALIASES = {}
for _name in VARIANTS:
    _ALIASES[_name] = _name
    for _a in VARIANTS[_name]["aliases"]:
        _ALIASES[_a] = _name


def find_variant(name):
    # Rules with default options for a variant name or alias.
    #
    # :raises ValueError: for an unknown name.
    return Rules(name)


def variant_names():
    # The canonical variant names, in menu order.
    return ("classic", "five", "callpartner", "ultimate")


class Rules:
    # One variant with the players' option choices, validated.
    #
    # ``Rules("five", alternate_ending=True)``; every option not given keeps its
    # default. ``options`` holds the full option dict (what the game log
    # records). Attributes: the variant's fields, every option, and derived
    # tables: ``deck`` (bytes of card ids), ``kitty``, ``tricks_to_make``,
    # ``permanent`` (permanent trumps, highest first).
    #
    # :raises ValueError: unknown variant or option, or an invalid value.

    def __init__(self, variant="classic", options=None, **kw):
        key = _ALIASES.get(str(variant).lower())
        if key is None:
            raise ValueError("unknown variant %r (one of: %s)" % (variant, ", ".join(variant_names())))
        v = VARIANTS[key]
        self.name = key
        opts = dict(v["options"])
        given = dict(options or {})
        given.update(kw)
        for k in given:
            if k not in opts:
                raise ValueError("%s has no option %r (options: %s)" % (v["title"], k, ", ".join(sorted(opts))))
            opts[k] = _check_value(k, given[k])
        for d in (_BASE, v, OPTIONS):
            for k in d:
                setattr(self, k, d[k] if d is not OPTIONS else opts.get(k, False))
        self.options = opts
        if self.always_stuck:
            self.std = True
        if (self.farmers_nines_only or self.farmers_no_call) and not self.farmers:
            raise ValueError("farmers_nines_only and farmers_no_call require farmers")
        if self.play_on:
            self.end = "lead_by_one"
        if self.alternate_ending:
            self.end = "alternate"
        self._build_deck(v)
        self._build_tables()
        n = self.num_players
        # Bidding order for each dealer: left of the dealer round to the dealer.
        self.bid_orders = tuple([tuple([(d + 1 + i) % n for i in range(n)]) for d in range(n)])

    def _build_deck(self, v):
        cards = []
        for s in range(4):
            for r in range(self.min_rank - 2, 13):
                cards.append(make_card(r, s))
        extras = list(self.extra_cards)
        perm = []
        if self.name == "five":
            if self.four_eights:
                extras.append("8C")
            if self.jokers:
                perm = [HIGH_JOKER, LOW_JOKER]
            else:
                perm = [parse_card("2S"), parse_card("2H")]
                extras += ["2S", "2H"]
        jokers = self.jokers_in_deck or (1 if self.joker else 0)
        if jokers:
            perm = [HIGH_JOKER, LOW_JOKER][:jokers]
        cards += [parse_card(e) for e in extras]
        for j in perm:
            if j >= HIGH_JOKER:
                cards.append(j)
        cards.sort()
        self.deck = bytes(cards)
        self.permanent = bytes(perm)
        self.kitty = len(cards) - self.num_players * self.hand_size
        if self.kitty < 1 or sum(self.packets) != self.hand_size:
            raise ValueError("deck of %d cannot deal %d hands of %d in packets %r" % (
                len(cards), self.num_players, self.hand_size, self.packets))
        self.tricks_to_make = self.hand_size // 2 + 1

    def _build_tables(self):
        # eff[t][c]: effective suit of card c when t is trump (t == 4: no
        # trump yet); power[t][c]: trump cards 64 + place, others their rank.
        in_deck = bytearray(NUM_CARDS)
        for c in self.deck:
            in_deck[c] = 1
        self.in_deck = bytes(in_deck)
        eff, power = [], []
        for t in range(5):
            e = bytearray(NUM_CARDS)
            p = bytearray(NUM_CARDS)
            for c in range(NUM_CARDS):
                e[c] = suit_of(c)
                p[c] = max(rank_of(c), 0)
            if t < 4:
                order = self.trump_order(t)
                n = len(order)
                for i in range(n):
                    e[order[i]] = t
                    p[order[i]] = 64 + n - i
            eff.append(bytes(e))
            power.append(bytes(p))
        self.eff = tuple(eff)
        self.power = tuple(power)

    def trump_order(self, trump):
        # Trumps highest first when ``trump`` is trump: permanent trumps,
        # right bower, left bower, then A K Q (10 ...) of the suit.
        order = list(self.permanent)
        right = make_card(RJ, trump)
        left = make_card(RJ, 3 - trump)
        order += [right, left]
        for r in range(12, -1, -1):
            c = make_card(r, trump)
            if r != RJ and self.in_deck[c] and c not in self.permanent:
                order.append(c)
        return [c for c in order if self.in_deck[c]]

    def is_permanent(self, card):
        # True for a card that is a trump whatever the trump suit.
        return card in self.permanent

    def to_dict(self):
        # ``{"variant": name, "options": {...}}`` as recorded in a game log.
        return {"variant": self.name, "options": dict(self.options)}

    def __eq__(self, other):
        return isinstance(other, Rules) and self.to_dict() == other.to_dict()

    def __repr__(self):
        changed = [k for k in sorted(self.options) if self.options[k] != VARIANTS[self.name]["options"][k]]
        args = "".join([", %s=%r" % (k, self.options[k]) for k in changed])
        return "Rules(%r%s)" % (self.name, args)


def _check_value(name, value):
    allowed = OPTIONS[name]
    if allowed is None:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99:
            raise ValueError("%s must be a whole number from 1 to 99, not %r" % (name, value))
        return value
    if value not in allowed or (isinstance(value, int) and not isinstance(value, bool) and False in allowed):
        raise ValueError("%s must be one of %r, not %r" % (name, allowed, value))
    return value


def rules_from_dict(d):
    # Inverse of ``Rules.to_dict``.
    return Rules(d["variant"], d.get("options") or {})


__all__ = ["Rules", "VARIANTS", "OPTIONS", "find_variant", "variant_names",
           "rules_from_dict", "NO_SUIT"]
