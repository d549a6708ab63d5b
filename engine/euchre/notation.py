# Labels for screens and reports (the core never imports this module).

OPTION_LABELS = {
    "winning_score": "Points to win",
    "std": "Stick the dealer",
    "canadian": "Canadian loner",
    "loner_lead": "Lone hand: who leads",
    "defend_alone": "Lone defender",
    "farmers": "Farmers hand",
    "farmers_nines_only": "Farmers: three 9s only",
    "farmers_no_call": "Farmer may not call",
    "partners_best": "Partner's best",
    "ace_no_face": "Ace no face",
    "joker": "Joker (Benny)",
    "renege_deduct": "Renege: deduct",
    "jokers": "Jokers for the 2s",
    "four_eights": "All four 8s",
    "alternate_ending": "Alternate ending",
    "play_on": "Play on to a lead",
    "min_rank": "Lowest card (deck)",
    "march": "March points",
    "alone": "Going alone",
    "misdeal_passes": "Misdeal passes left",
    "raise_target": "Both reach: target +10",
    "no_late_loners": "No loners at 8 or 9",
    "lone_euchre_4": "Euchred loner gives 4",
    "same_dealer": "All pass: same dealer",
    "round_hands": "Club round: hands",
    "lone_march": "Club: lone march",
    "set_loner": "Club: set loner",
    "renege_points": "Club: renege",
}

VALUE_LABELS = {
    "LEFT_OF_DEALER": "left of dealer",
    "LEFT_OF_LONER": "left of loner",
    False: "off",
    True: "on",
}


def option_label(name):
    """Human name of an option."""
    return OPTION_LABELS.get(name, name)


def value_label(value):
    """Human form of an option value."""
    if value is True or value is False:
        return VALUE_LABELS[value]
    return VALUE_LABELS.get(value, str(value))


def describe_rules(rules):
    """One line per option: "Stick the dealer: on"."""
    return [option_label(k) + ": " + value_label(rules.options[k]) for k in sorted(rules.options)]


# Every outcome code of a finished hand (euchre.hand.OUTCOMES, in this
# order) and its words, as the engine has always worded them: what the
# host's library keeps in ``reason`` and its exports write. Where the hand
# sets them: scored (euchre.hand's score_hand) made, made alone, march (all
# the tricks), lone march, lone march with partner's best (003), march
# without a partner (000, 001), euchred, euchred by a lone defender (004;
# the name of its points in ``rules.score``), renege; void (``_over`` with
# a code) nobody made trump, misdeal, ace no face (003), nines and tens
# (003), throw-in (000). (The device words them itself, to fit its screen:
# bower.menu ``reason``.)
OUTCOME_TEXT = {
    "made": "made",
    "made_alone": "made alone",
    "march": "march",
    "lone_march": "lone march",
    "best_march": "lone march with partner's best",
    "unpartnered_march": "march without a partner",
    "euchred": "euchred",
    "defend_euchre": "euchred by a lone defender",
    "renege": "renege by seat %d",
    "all_passed": "all passed",
    "misdeal": "misdeal",
    "ace_no_face": "ace no face",
    "nines_tens": "nines and tens",
    "throw_in": "throw-in",
}


def outcome_text(outcome, renege=-1):
    """The sentence for a hand's outcome code and, for ``"renege"``, the
    seat that reneged: ``outcome_text("renege", 2)`` is "renege by seat 2".

    :raises KeyError: not an outcome code.
    """
    text = OUTCOME_TEXT[outcome]
    return text % renege if outcome == "renege" else text
