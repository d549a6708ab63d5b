"""Every option of every variant, as the people at the table read it.

For each variant (in the device's menu order) and each option it takes:
what it does and its source, as docs/RULES.md cites them; the rest (the
option's values, its default, its label on the device) is the engine's and
the firmware's own (``euchre.rules``, ``euchre.morevariants``,
``bower.screens``), so ``bower rules show`` and the tables it writes into
docs/RULES.md (between marker comments) cannot drift from what is played.

::

    for row in option_rows():          # every variant's every option
        print(row.variant, row.option, row.label, row.values, row.default, row.source)
    text = rewrite(text)               # docs/RULES.md with its generated tables made again
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from euchre.notation import value_label
from euchre.rules import MORE_VARIANTS, OPTIONS, Rules, variant_data, variant_names

#: No loners at 8 or 9: Classic's and Six-Handed's (their Rules.later), one text.
_LATE = ("A side within 2 points of the target (8 or 9 in a game to 10) may not go alone; its partners "
         "still make trump together, and Canadian's dealer's partner then orders up with the dealer.",
         "[igl] (\"NO LONERS ON 8 OR 9\", its games to 10)")

#: A euchred loner gives 4: Classic's and Six-Handed's, one text.
_SET4 = ("A lone maker who is euchred gives the defenders 4 points instead of 2.",
         "[Laws] (law 3; `seeds/003_...` says 2, the default)")

#: Misdeal pass: every variant's (euchre.rules LATER), one text.
_MISDEAL = ("A misdeal passes the deal to the left instead of the same dealer dealing again (every variant "
            "has this option).", "[Laws] (law 41)")


def _target(points: int, source: str) -> tuple[str, str]:
    return (f"The points that win the game ({points} unless you set another).",
            f"{points}: {source}; another target: Bower's choice")


# variant -> option -> (what it does, source): the text of docs/RULES.md's
# tables, in their order. Every option a variant takes has its row
# (tests/host/test_rules_show.py).
TEXT: dict[str, dict[str, tuple[str, str]]] = {
    "classic": {
        "winning_score": _target(10, "Classic's sources"),
        "std": ("If everyone passes twice, the dealer must name trump.", "`seeds/004_...`"),
        "canadian": ("If the dealer's partner orders the card up in the first round, that player must go alone.",
                     "`seeds/004_...`"),
        "loner_lead": ("Who leads when the maker goes alone: left of the dealer (default) or left of the lone "
                       "maker.", "`seeds/004_...`"),
        "defend_alone": ("After the maker decides, one defender may also go alone (the partner sits out). A lone "
                         "defender who euchres the makers scores 4; if both a maker and a defender go alone, the "
                         "defender leads.", "`seeds/004_...`"),
        "farmers": ("Before bidding, a player holding three 9s or 10s may swap them for the three hidden cards "
                    "under the turned-up card. Only the first player to claim it each hand.", "`seeds/003_...`"),
        "farmers_nines_only": ("Farmers needs three 9s (10s do not count).", "`seeds/003_...`"),
        "farmers_no_call": ("A player who took the farmers swap may not make trump that hand (if that player is a "
                            "stuck dealer and all others passed, the hand is thrown in).", "`seeds/003_...`"),
        "partners_best": ("A player going alone takes the partner's best card and gives one back; a lone march "
                          "then scores 3, not 4.", "`seeds/003_...`"),
        "ace_no_face": ("A hand of an ace and four 9s or 10s is thrown in and the same dealer deals again; a hand "
                        "of only 9s and 10s is thrown in and the deal passes left.", "`seeds/003_...`"),
        "joker": ("A 25th card, the joker (\"Benny\"), is the highest trump. If it is turned up, the dealer names "
                  "its suit before bidding.", "`seeds/004_...`"),
        "renege_deduct": ("A renege takes 2 (or 4) points off the guilty side instead of giving them to the other "
                          "side.", "`seeds/004_...`"),
        "misdeal_passes": _MISDEAL,
        "no_late_loners": _LATE,
        "lone_euchre_4": _SET4,
    },
    "five": {
        "winning_score": _target(10, "`seeds/000_...`"),
        "jokers": ("A high and a low joker replace the two 2s (same places in the trump order).",
                   "`seeds/000_...`"),
        "four_eights": ("All four 8s are in the deck (30 cards; five are left over).", "`seeds/000_...`"),
        "alternate_ending": ("The game ends as soon as anyone reaches the target; if several do in the same hand, "
                             "the one who had the lowest score before that hand wins; still tied, it is a draw "
                             "among them.", "`seeds/000_...`"),
        "misdeal_passes": _MISDEAL,
    },
    "callpartner": {
        "winning_score": _target(10, "`seeds/001_...`"),
        "std": ("As in Classic.", "`seeds/001_...` (trump made as in Classic)"),
        "play_on": ("Instead of sharing a tied win, keep playing until one player leads (as in Five-Handed).",
                    "`seeds/001_...`"),
        "misdeal_passes": _MISDEAL,
    },
    "ultimate": {
        "winning_score": _target(35, "`seeds/002_...`"),
        "misdeal_passes": _MISDEAL,
    },
    "three": {
        "winning_score": _target(10, "[52pickup], [gamerules]"),
        "min_rank": ("9: 24 cards (default); 7: 32 cards", "[52pickup] / [gamerules]"),
        "march": ("points for a march: 3 (default) or 2", "[52pickup] / [Brisbane]"),
        "alone": ("the maker may declare a lone hand; its march scores 4", "off: [gamerules]; on: [WEF]"),
        "std": ("stick the dealer", "[rarepike]"),
        "play_on": ("instead of a shared win, play on until one player leads", "Bower's choice (as Five-Handed)"),
        "misdeal_passes": _MISDEAL,
        "raise_target": ("when two or more players have reached the target after a hand, the target goes up by 10 "
                         "and play goes on (not with play_on)",
                         "[searchamateur] (written for two players, where only one scores a hand)"),
        "joker": ("a joker in the deck (25 cards; 33 with the 7s), the highest trump; turned up, the dealer names "
                  "its suit", "[rule6] (25) / [kct] (33)"),
    },
    "six": {
        "winning_score": _target(10, "[ref6b]"),
        "jokers": ("both jokers in the deck, the top two trumps", "[ref6a]"),
        "std": ("stick the dealer", "[ref6a] (bidding as the four-handed game)"),
        "misdeal_passes": _MISDEAL,
        "no_late_loners": _LATE,
        "joker": ("one joker in the deck (33 cards), the highest trump (not with jokers)", "[ref6b]"),
        "lone_euchre_4": ("A lone maker who is euchred gives the defenders 4 points instead of 2.",
                          "[Laws] (law 3), as [ref6a] scores the six-handed game as the four-handed one"),
    },
    "two": {
        "winning_score": _target(5, "[Cassell]"),
        "min_rank": ("7: 32 cards (default); 9: 24 cards", "[Keller] / [24-card two]"),
        "joker": ("the joker as the highest trump", "[Keller]"),
        "std": ("stick the dealer", "[24-card two]"),
        "misdeal_passes": _MISDEAL,
        "same_dealer": ("when both players pass twice, the same dealer deals again (off: the other player deals)",
                        "[24-card two] (\"depending on group, locality, and taste\"); off: [Keller]"),
    },
}


def variants() -> tuple[str, ...]:
    """Every variant's canonical name, in the device's menu order."""
    return tuple(variant_names()) + tuple(MORE_VARIANTS)


def accepted(variant: str) -> list[str]:
    """The options ``variant`` takes: its own (``variant_data``), then the later ones (``Rules.later``:
    LATER, every variant's, and the variant's own)."""
    own = list(variant_data(variant)["options"])
    return own + [k for k in Rules(variant).later if k not in own]


def device_label(variant: str, option: str) -> str:
    """The option's name on the device's Options menu (``bower.screens``)."""
    from bower import screens
    own = screens.OWN.get((variant, option))    # (the firmware's table of the exceptions)
    return own[0] if own else screens.SHORT[option]


def values_text(option: str) -> str:
    """The values ``option`` takes, in words: "1 to 99", "off / on", "9 / 7"."""
    allowed = OPTIONS[option]
    if allowed is None:
        return "1 to 99"
    return " / ".join(value_label(v) for v in allowed)


def values_json(option: str) -> list | dict:
    """The values ``option`` takes, for JSON: a list, or ``{"min": 1, "max": 99}``."""
    allowed = OPTIONS[option]
    return {"min": 1, "max": 99} if allowed is None else list(allowed)


@dataclass(frozen=True)
class OptionRow:
    """One option of one variant."""

    variant: str
    title: str
    option: str
    label: str
    values: str
    default: object
    does: str
    source: str

    def as_json(self) -> dict:
        return {"variant": self.variant, "title": self.title, "option": self.option, "label": self.label,
                "values": values_json(self.option), "default": self.default, "does": self.does,
                "source": self.source}


class MissingText(Exception):
    """An option a variant takes has no row in :data:`TEXT` (a bug: the test says so)."""


def option_rows(only: str | None = None) -> list[OptionRow]:
    """Every option of every variant (or of ``only``), the variant's order of :data:`TEXT`.

    :raises MissingText: an option the engine takes that :data:`TEXT` lacks, or one it does not take.
    """
    rows = []
    for v in variants():
        if only is not None and v != only:
            continue
        rules = Rules(v)
        text = TEXT.get(v, {})
        took = accepted(v)
        if set(text) != set(took):
            raise MissingText(f"{v}: rulesdoc.TEXT has {sorted(text)}, the engine takes {sorted(took)}")
        for k, (does, source) in text.items():
            rows.append(OptionRow(v, rules.title, k, device_label(v, k), values_text(k), getattr(rules, k),
                                  does, source))
    return rows


# ----- docs/RULES.md's tables ------------------------------------------------------

#: The comment opening a variant's generated table, and the one closing it.
BEGIN = "<!-- generated by bower rules show --write: {} -->"
END = "<!-- end -->"
_BLOCK = re.compile(r"^<!-- generated by bower rules show --write: (.*?) -->\n(.*?)^<!-- end -->$",
                    re.MULTILINE | re.DOTALL)
_OPEN = re.compile(r"^<!-- generated by bower rules show --write: (.*?) -->$", re.MULTILINE)


class MarkerError(Exception):
    """A file whose marker comments are missing or broken (the message says which, one line)."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table(variant: str) -> str:
    """``variant``'s table of options, as docs/RULES.md shows it (ending in a newline)."""
    lines = ["| on the device | option | what it does | default | source |", "|---|---|---|---|---|"]
    for r in option_rows(variant):
        lines.append(f"| {_cell(r.label)} | `{r.option}` | {_cell(r.does)} | {value_label(r.default)} | "
                     f"{_cell(r.source)} |")
    return "\n".join(lines) + "\n"


def rewrite(text: str, only: str | None = None) -> tuple[str, list[str]]:
    """``text`` with every generated table (or ``only``'s) made again, and the variants rewritten.

    :raises MarkerError: no marker at all, a marker without its end, one naming no variant, or a variant twice.
    """
    opened = _OPEN.findall(text)
    if not opened:
        raise MarkerError("it has no generated tables (the comments " + BEGIN.format("VARIANT") + " ... " + END
                          + " around them)")
    found = _BLOCK.findall(text)
    names = [m[0] for m in found]
    for name, body in found:
        if _OPEN.search(body):          # the next table's marker comes before this one's end
            raise MarkerError(f"the table of {name!r} has no {END} after it")
    if len(found) != len(opened) or text.count(END) < len(opened):
        missing = next((n for n in opened if n not in names), opened[-1])
        raise MarkerError(f"the table of {missing!r} has no {END} after it")
    for n in names:
        if n not in variants():
            raise MarkerError(f"a table is marked for {n!r}, which is no variant (one of: {', '.join(variants())})")
        if names.count(n) > 1:
            raise MarkerError(f"the table of {n!r} is marked twice")
    done: list[str] = []

    def table(m: re.Match) -> str:
        v = m.group(1)
        if only is not None and v != only:
            return m.group(0)
        done.append(v)
        return BEGIN.format(v) + "\n" + markdown_table(v) + END

    return _BLOCK.sub(table, text), done
