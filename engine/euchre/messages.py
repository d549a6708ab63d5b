# The text of the engine's error messages for bad input, by key.
#
# Loaded only when one is raised: the device, which practically never
# raises them, keeps their text out of its RAM (firmware/DEVICE.md, 2).
# euchre.why holds the messages for illegal actions.

_TEXT = {
    "card": "not a card: %r (write rank then suit, e.g. JH, TS, 2S, or HJ/LJ)",
    "suit": "not a suit: %r (use C, D, H or S)",
    "action": "unknown action %r (see the notation in engine/README.md)",
    "malformed": "malformed action %r",
    "variant": "unknown variant %r (one of: %s)",
    "option": "%s has no option %r (options: %s)",
    "twice": "%s and %s are one option: give it once",
    "number": "%s must be a whole number from %d to 99, not %r",
    "value": "%s must be one of %r, not %r",
    "farmers": "farmers_nines_only and farmers_no_call require farmers",
    "raise_target": "play_on and raise_target are two ways to end a tie: choose one",
    "joker": "joker (one joker) and jokers (both) are two decks: choose one",
    "round": "%s is a club round's option: it requires round_hands",
    "round_variant": "a club round is Classic Euchre, not %s",
    "deck": "deck of %d cannot deal %d hands of %d in packets %r",
    "table": "no deal now: this hand is in table mode",
    "torn": "line %d: not a log line (torn or garbage)",
    "crc": "line %d: malformed CRC",
    "corrupt": "line %d: CRC mismatch (corrupted)",
    "json": "line %d: bad JSON",
    "players": "%s needs %d player names (text), got %r",
    "dealer": "first dealer must be a seat from 0 to %d",
    "start": "a game's start is %d whole scores, partners alike, each from -99 to below the target %d, not %r",
    "over": "the game is over",
    "accept": "only a club round is accepted, once: at its end or between its hands",
    "undo_restored": "undo past a restored checkpoint: replay the whole log",
    "amend_when": "a hand is amended between hands or once the game is over, not during hand %d",
    "amend_which": "no finished hand %d to amend (hands 1 to %d are finished)",
    "amend_restored": "amending hand %d needs the game's earlier hands: replay the whole log",
    "amend_redeal": ("hand %d was dealt again (a misdeal, or all passed with same_dealer): its dealer dealt the "
                     "next hand too, so it stays as it was"),
    "amend_accepted": "the round's result is accepted: undo the acceptance, amend, and accept it again",
    "amend_quick": "an amended hand is entered as quick score: who made trump (quick N, quick none), then how it ended",
    "undo_start": "nothing to undo: this is the start of the game",
    "checkpoint": "bad checkpoint %r",
    "header": "bad game header: missing or malformed %s",
    "text": "an action is text in the notation, not %r",
    "index": "no legal action at index %r (%d legal now)",
    "seat": "not a seat: %r (seats 0-%d)",
    "rules": "not a Rules: %r",
    "options": "options must be a dict of option names to values, not %r",
}


def message(key, *args):
    """The message ``key`` with its ``%`` arguments filled in."""
    return _TEXT[key] % args
