# The types of euchre.rules, for type checkers and editors only.
#
# ``Rules`` sets most of its fields from the variant tables with setattr
# (rules.py), which costs the device no bytecode per field but which no type
# checker can follow; this stub declares them. Nothing runs it: a deploy
# compiles only the .py files (bower_host.deploy), and MicroPython never
# reads a .pyi. tests/engine/test_stubs.py checks that it declares exactly
# the fields a Rules holds and every public name of rules.py.

from typing import Any

OPTIONS: dict[str, tuple[bool, bool] | tuple[int, ...] | tuple[str, ...] | None]
VARIANTS: dict[str, dict[str, Any]]
LATER: tuple[str, ...]
MORE_VARIANTS: tuple[str, ...]

def variant_names() -> tuple[str, ...]: ...
def variant_data(name: str) -> dict[str, Any]: ...
def rules_from_dict(d: dict[str, Any]) -> Rules: ...

class Rules:
    # A club round (euchre.clubround); class defaults 0 in a plain game.
    round_hands: int
    set_loner: int

    # The variant.
    name: str
    title: str
    score: tuple[int, ...]
    options: dict[str, Any]
    num_players: int
    teams: bool
    min_rank: int
    extra_cards: tuple[str, ...]
    jokers_in_deck: int
    hand_size: int
    packets: tuple[int, ...]
    alone: bool
    call_partner: str
    perm_upcard: str
    always_stuck: bool
    throw_in: bool
    needs_trick: bool
    twos_and_threes: bool
    discard_before_call: bool
    renege: str
    end: str
    later: tuple[str, ...]   # LATER and the variant's own later options

    # The options (those the variant lacks are False).
    winning_score: int
    std: bool
    canadian: bool
    loner_lead: str | bool
    defend_alone: bool
    farmers: bool
    farmers_nines_only: bool
    farmers_no_call: bool
    partners_best: bool
    ace_no_face: bool
    misdeal_passes: bool
    raise_target: bool
    no_late_loners: bool
    lone_euchre_4: bool
    same_dealer: bool
    joker: bool
    renege_deduct: bool
    jokers: bool
    four_eights: bool
    alternate_ending: bool
    play_on: bool
    march: int

    # Derived tables.
    deck: bytes
    permanent: bytes
    kitty: int
    tricks_to_make: int
    in_deck: bytes
    eff: tuple[bytes, ...]
    power: tuple[bytes, ...]
    bid_orders: tuple[tuple[int, ...], ...]

    def __init__(self, variant: str = "classic", options: dict[str, Any] | None = None,
                 **kw: Any) -> None: ...
    def trump_order(self, trump: int) -> list[int]: ...
    def is_permanent(self, card: int) -> bool: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __eq__(self, other: object) -> bool: ...
    # CPython only (not defined on the device):
    @property
    def stick_the_dealer(self) -> bool: ...
