# Variants as validated data.
#
# ``VARIANTS`` holds the four variants of ``RULES.md`` (the variants for three,
# six and two players are euchre.morevariants', loaded when one is played; on
# the host, ``MORE_VARIANTS`` and ``variant_data``); a ``Rules`` object is
# one variant plus the players' option choices, checked in the constructor
# and turned into lookup tables (deck, trump order) once. Option names follow
# the Euchre Game Notation where it has one (``std``, ``winning_score``,
# ``canadian``, ``loner_lead``, ``defend_alone``, ``farmers``,
# ``partners_best``, ``joker``, ``num_players``, ``min_rank``).
#
# The data is written as dict(name=...) (firmware/DEVICE.md, 2); score
# tables are tuples.
#
# >>> r = Rules("classic", std=True)
# >>> r.kitty, r.std, len(r.deck)
# (4, True, 24)
# >>> Rules("5-handed").name  # a variant by name or alias (euchre.names)
# 'five'

# The fields set from the tables are declared in rules.pyi, for type
# checkers (a class attribute each would cost the device heap:
# firmware/DEVICE.md, 1); within this
# file pyright cannot see them, hence the one rule it skips here.
# pyright: reportAttributeAccessIssue=false

import sys

from euchre.cards import HIGH_JOKER, NUM_CARDS, RJ, parse_cards, error_text

_B = (False, True)
# Option name -> allowed values (None: a whole number from 1 to 99). Labels
# for screens are in euchre.notation. (dict(name=...): firmware/DEVICE.md, 2)
OPTIONS = dict(
    winning_score=None, std=_B, canadian=_B,
    loner_lead=("LEFT_OF_DEALER", "LEFT_OF_LONER"),
    defend_alone=_B, farmers=_B, farmers_nines_only=_B,
    farmers_no_call=_B, partners_best=_B, ace_no_face=_B,
    joker=_B, renege_deduct=_B, jokers=_B, four_eights=_B,
    alternate_ending=_B, play_on=_B, min_rank=(9, 7), march=(2, 3), alone=_B,
    misdeal_passes=_B, raise_target=_B, no_late_loners=_B, lone_euchre_4=_B, same_dealer=_B)
# Options every variant takes that came after the game logs began (issue
# 36), each off by default: ``Rules.options`` (and so a game's log) holds
# one only when it is on, so a game without it logs, replays and costs the
# device what it did before. A variant's own later options are its
# ``later`` (Three-Handed's raise_target and joker; Classic's and
# Six-Handed's no_late_loners and lone_euchre_4, Six-Handed's joker;
# Two-Handed's same_dealer), kept the same way.
LATER = ("misdeal_passes",)
# (min_rank and alone are also fields of every variant, below: a variant
# that has them as options sets them, the others keep their own.)
# (Classic's club-round options, round_hands and the night's scoring, are
# euchre.clubround's: not house rules, so not here.)

# What every variant has unless it says otherwise.
_BASE = dict(
    num_players=4, teams=True, min_rank=9, extra_cards=(), jokers_in_deck=0,
    hand_size=5, packets=(2, 3), alone=True, call_partner="", perm_upcard="",
    always_stuck=False, throw_in=False, needs_trick=False, twos_and_threes=False,
    discard_before_call=False, renege="side", end="first_to")

# Each variant: its title, how it differs from _BASE, its score
# table and the options players may set, with their defaults. A score table
# lists the points for: make, march, alone_make, alone_march, best_march,
# unpartnered_march, euchre, defend_euchre, renege, renege_alone (0: never
# happens in the variant); euchre.hand.score_hand reads it. Sources are the seeds
# in RULES.md.
VARIANTS = {
    # 002 (second part), 003, 004
    "classic": dict(
        title="Classic Euchre",
        perm_upcard="dealer_names", later=("no_late_loners", "lone_euchre_4"),
        score=(1, 2, 1, 4, 3, 0, 2, 4, 2, 4),
        options=dict(winning_score=10, std=False, canadian=False,
                     loner_lead="LEFT_OF_DEALER", defend_alone=False,
                     farmers=False, farmers_nines_only=False,
                     farmers_no_call=False, partners_best=False,
                     ace_no_face=False, joker=False, renege_deduct=False)),
    # 000
    "five": dict(
        title="Five-Handed Euchre",
        num_players=5, teams=False, extra_cards=("8S", "8H", "8D"),
        call_partner="not_permanent", perm_upcard="dealer_names_or_turns",
        always_stuck=True, throw_in=True, needs_trick=True,
        renege="offender", end="lead_by_one",
        score=(1, 2, 1, 4, 0, 2, 2, 0, 2, 4),
        options=dict(winning_score=10, jokers=False, four_eights=False,
                     alternate_ending=False)),
    # 001
    "callpartner": dict(
        title="Call-Your-Partner",
        num_players=5, teams=False, min_rank=8,
        call_partner="not_trump", discard_before_call=True,
        renege="offender", end="highest",
        score=(1, 2, 1, 5, 0, 5, 2, 0, 2, 4),
        options=dict(winning_score=10, std=False, play_on=False)),
    # 002 (first part)
    "ultimate": dict(
        title="Ultimate Euchre",
        min_rank=2, jokers_in_deck=2, hand_size=11,
        packets=(2, 1, 2, 2, 1, 2, 1), alone=False,
        perm_upcard="orderer_names", always_stuck=True,
        twos_and_threes=True,
        score=(5, 7, 0, 0, 0, 0, 7, 0, 7, 7),
        options=dict(winning_score=35)),
}


def variant_names():
    """The canonical variant names, in menu order."""
    return ("classic", "five", "callpartner", "ultimate")


class Rules:
    """A variant and its options."""

    later = LATER     # the later options it takes (absent from options while off): LATER and its own
    round_hands = 0   # a club round's length (euchre.clubround); 0: a game
    set_loner = 0     # a club round's points for euchring a loner; 0: a euchre's

    def __init__(self, variant="classic", options=None, **kw):
        """``Rules("five", alternate_ending=True)``: every option not given
        keeps its default; an option may be given by its name in full
        (``stick_the_dealer`` for ``std``, euchre.names), once.
        ``options`` holds the full option dict (what the game log
        records). Attributes (typed in rules.pyi): the variant's fields
        (``title``, ``score``...), every option, and derived tables:
        ``deck`` (bytes of card ids), ``kitty``, ``tricks_to_make``,
        ``permanent`` (permanent trumps, highest first), ``in_deck``,
        ``eff``, ``power`` and ``bid_orders``.

        :raises ValueError: unknown variant (the message lists the variants)
            or option (it lists the variant's options), an option given
            under both its names, or an invalid value.
        """
        key = variant
        if key in variant_names():
            v = VARIANTS[key]
        else:
            # A variant for three, six or two players: its data is
            # euchre.morevariants', loaded when one is played. Other names
            # (5-handed, call-your-partner, ...): never on the device.
            from euchre.morevariants import NAMES, VARIANTS as more
            if key not in NAMES:
                from euchre.names import variant_key
                key = variant_key(variant)
            v = more[key] if key in NAMES else VARIANTS[key]
        self.name = key
        self.title = v["title"]
        opts = dict(v["options"])
        later = LATER + v["later"] if "later" in v else LATER
        if options is not None and not isinstance(options, dict):
            raise ValueError(error_text("options", options))
        given = dict(options or {})
        given.update(kw)
        for k in list(given):
            if k not in opts and k not in OPTIONS:
                # A longer name (stick_the_dealer for std): never on the device.
                from euchre.names import option_key
                short = option_key(k)
                if short in given:
                    raise ValueError(error_text("twice", short, k))
                if short in opts:
                    given[short] = given.pop(k)
        rnd = None
        if "round_hands" in given:
            # A club round (host/CLUB.md): its options apart.
            from euchre.clubround import round_options
            rnd = round_options(key, given)
        for k in given:
            if k not in opts and k not in later:
                raise ValueError(error_text("option", self.title, k, ", ".join(sorted(opts))))
            x = given[k]
            allowed = OPTIONS[k]
            if allowed is None:
                if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 99:
                    raise ValueError(error_text("number", k, 1, x))
            elif x not in allowed or type(x) is not type(allowed[0]):     # (9.0 == 9, 1 == True: not the value)
                raise ValueError(error_text("value", k, allowed, x))
            if x is not False or k not in later:
                opts[k] = x     # (a later option off: as if not given)
        for d in (_BASE, v):  # (v also gives title, score and options)
            for k in d:
                setattr(self, k, d[k])
        if later is not LATER:
            self.later = later    # (every later option it takes; else the class's LATER)
        self.options = opts
        for k in OPTIONS:
            setattr(self, k, opts.get(k, getattr(self, k, False)))
        if self.march:
            # Three-handed: a march's points are an option.
            self.score = (self.score[0], self.march) + self.score[2:]
        if self.always_stuck:
            self.std = True
        if (self.farmers_nines_only or self.farmers_no_call) and not self.farmers:
            raise ValueError(error_text("farmers"))
        if self.joker and self.jokers:
            raise ValueError(error_text("joker"))   # (Six-Handed: one joker or both)
        if self.lone_euchre_4:
            # The Laws of Euchre (1888), law 3: a euchred lone player's
            # adversaries score four (docs/RULES.md [Laws]).
            self.set_loner = 4
        if self.play_on:
            if self.raise_target:
                raise ValueError(error_text("raise_target"))
            self.end = "lead_by_one"
        if self.alternate_ending:
            self.end = "alternate"
        self._build()
        if rnd:
            from euchre.clubround import apply
            apply(self, rnd)

    def _build(self):
        # The deck; permanent trumps: Five-Handed's 2S and 2H (or its two
        # jokers), the joker of Classic (004) and Ultimate's two jokers.
        n, k = self.num_players, self.hand_size
        cards = []
        for s in range(4):
            cards.extend(range(s * 13 + self.min_rank - 2, s * 13 + 13))
        extra = " ".join(self.extra_cards)
        perm = ""
        if self.name == "five":
            perm = "HJ LJ" if self.jokers else "2S 2H"
            extra += (" 8C " if self.four_eights else " ") + perm
        elif self.jokers_in_deck == 2 or self.jokers:
            # Ultimate; Six-Handed's option jokers
            perm = extra = "HJ LJ"
        elif self.joker:
            perm = extra = "HJ"
        cards += parse_cards(extra)
        cards.sort()
        self.deck = bytes(cards)
        self.permanent = bytes(parse_cards(perm))
        self.kitty = len(cards) - n * k
        if self.kitty < 1 or sum(self.packets) != k:
            raise ValueError(error_text("deck", len(cards), n, k, self.packets))
        self.tricks_to_make = k // 2 + 1
        # eff[t][c]: effective suit of card c when t is trump (t == 4: no
        # trump yet); power[t][c]: trump cards 64 + place, others their rank.
        in_deck = bytearray(NUM_CARDS)
        for c in cards:
            in_deck[c] = 1
        self.in_deck = bytes(in_deck)
        eff, power = [], []
        for t in range(5):
            e = bytearray(NUM_CARDS)
            p = bytearray(NUM_CARDS)
            for c in range(HIGH_JOKER):
                e[c] = c // 13
                p[c] = c % 13
            e[HIGH_JOKER] = e[HIGH_JOKER + 1] = 4
            if t < 4:
                order = self.trump_order(t)
                for i in range(len(order)):
                    e[order[i]] = t
                    p[order[i]] = 64 + len(order) - i
            eff.append(bytes(e))
            power.append(bytes(p))
        self.eff = tuple(eff)
        self.power = tuple(power)
        # Bidding order for each dealer: left of the dealer round to the dealer.
        seats = tuple(range(n)) * 2
        self.bid_orders = ()
        for d in range(n):
            self.bid_orders += (seats[d + 1:d + 1 + n],)

    def trump_order(self, trump):
        """Trumps highest first when ``trump`` is trump: permanent trumps,
        right bower, left bower, then A K Q (10 ...) of the suit.
        """
        order = []
        for c in list(self.permanent) + [trump * 13 + RJ, (3 - trump) * 13 + RJ] + \
                list(range(trump * 13 + 12, trump * 13 - 1, -1)):
            if self.in_deck[c] and c not in order:
                order.append(c)
        return order

    def is_permanent(self, card):
        """True for a card that is a trump whatever the trump suit."""
        return card in self.permanent

    def to_dict(self):
        """``{"variant": name, "options": {...}}`` as recorded in a game log."""
        return {"variant": self.name, "options": dict(self.options)}

    def __eq__(self, other):
        return isinstance(other, Rules) and self.to_dict() == other.to_dict()

    if sys.implementation.name != "micropython":
        # (not on the device: firmware/DEVICE.md, 1)
        @property
        def stick_the_dealer(self):
            """Option ``std`` by its name in full (euchre.names)."""
            return self.std

        # (a repr:)
        def __repr__(self):
            base = Rules(self.name).options
            out = "Rules(%r" % self.name
            for k in sorted(self.options):
                if self.options[k] != base.get(k, False):
                    out += ", %s=%r" % (k, self.options[k])
            return out + ")"


def rules_from_dict(d):
    """Inverse of ``Rules.to_dict``."""
    return Rules(d["variant"], d.get("options") or {})


if sys.implementation.name != "micropython":
    # (the host's: on the device each name costs heap, and ``Rules`` finds
    # these variants itself)

    # The variants for three, six and two players, in menu order: their data
    # is euchre.morevariants' (whose NAMES these are), which a device loads
    # only when one is played.
    MORE_VARIANTS = ("three", "six", "two")

    def variant_data(name):
        """The data of variant ``name`` (a canonical name), as in VARIANTS."""
        if name in VARIANTS:
            return VARIANTS[name]
        from euchre.morevariants import VARIANTS as more
        return more[name]
