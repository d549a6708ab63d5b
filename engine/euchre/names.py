# The names people type for a variant, and the one each stands for.
#
# ``Rules`` looks here only for a name that is not canonical (``classic``,
# ``five``, ``callpartner``, ``ultimate``, ``three``, ``six``, ``two``): logs
# and the device's menus use the canonical names, so the device never loads
# this module. A name is matched
# in lower case without spaces, hyphens, underscores or apostrophes, and
# with or without a trailing "euchre": ``Call-Your-Partner``,
# ``call your partner euchre`` and ``callyourpartner`` are one name.
#
# >>> variant_key("5-Handed")
# 'five'
#
# Options, too, may be given by a longer name than the one the log keeps
# (EGN's, for those EGN has): ``stick_the_dealer`` is ``std``.
#
# >>> option_key("stick_the_dealer")
# 'std'

# (canonical name, its other names): a short tuple of pairs, not a dict of
# every alias, so the table costs a few objects.
ALIASES = (
    ("classic", "euchre 4 four standard 4player fourplayer 4handed fourhanded"),
    ("five", "5 fivehanded 5handed 5player fiveplayer"),
    ("callpartner", "callyourpartner calltheirpartner cyp call"),
    ("ultimate", "54 54card fulldeck"),
    ("three", "3 threehanded 3handed 3player threeplayer cutthroat"),
    ("six", "6 sixhanded 6handed 6player sixplayer"),
    ("two", "2 twohanded 2handed 2player twoplayer"),
)


# (an option's name in full, the name a log keeps)
OPTION_ALIASES = (
    ("stick_the_dealer", "std"),
    ("points_to_win", "winning_score"),
    ("canadian_loner", "canadian"),
    ("lone_defender", "defend_alone"),
    ("farmers_hand", "farmers"),
    ("partners_best_card", "partners_best"),
)


def option_key(name):
    """The option a longer name stands for, or None."""
    for full, key in OPTION_ALIASES:
        if name == full:
            return key
    return None


def _plain(text):
    # ``text`` lower case, without separators and a trailing "euchre".
    t = str(text).lower()
    for c in " -_'":
        t = t.replace(c, "")
    if t.endswith("euchre") and len(t) > 6:
        t = t[:-6]
    return t


def variant_key(text):
    """The canonical name of the variant ``text`` names.

    :raises ValueError: no variant has that name; the message lists them.
    """
    t = _plain(text)
    for key, others in ALIASES:
        if t == key or t in others.split():
            return key
    from euchre.cards import error_text
    raise ValueError(error_text("variant", text, ", ".join([k for k, _ in ALIASES])))
