"""A scripted demo game: heuristic bots play real cards through the engine,
and each hand is printed the way the device will summarise it."""

from __future__ import annotations

import random
from typing import Callable, TextIO

from euchre import Game, Rules
from euchre.bot import choose
from euchre.cardmode import shuffled_deck
from euchre.cards import SUIT_NAMES, card_name
from euchre.hand import P_TURN

DEFAULT_NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]


def play_demo(variant: str = "classic", seed: int = 1, names: list[str] | None = None,
              out: TextIO | None = None, max_hands: int = 200) -> Game:
    """Play one bot game of ``variant`` (card mode) and print it hand by hand."""
    rules = Rules(variant)
    n = rules.num_players
    names = (names or DEFAULT_NAMES)[:n]
    rng = random.Random(seed)
    game = Game(rules, names, dealer=rng.randrange(n), cards=True)
    say: Callable[[str], None] = (lambda s: print(s, file=out)) if out else print
    say(f"Bower demo: {rules.title}, {', '.join(names)}; first dealer {names[game.dealer]}")
    while not game.is_terminal() and game.hand_no <= max_hands:
        hand = game.hand
        if hand.phase == 0:
            game.deal(shuffled_deck(rules, rng.randrange))
        elif hand.phase == P_TURN:
            game.apply_id(hand.legal_ids()[rng.randrange(len(hand.legal_ids()))])
        else:
            game.apply_id(choose(hand))
        if game.last_hand is hand:
            say(describe_hand(game, hand))
    say("")
    for label, score in game.standings():
        say(f"  {label:<12} {score:>3}")
    if game.result:
        winners, kind = game.result
        who = " & ".join(game.winner_names())
        say({"win": f"Winner: {who}", "shared": f"Shared win: {who}", "draw": f"Draw: {who}"}[kind])
    return game


def describe_hand(game: Game, hand) -> str:
    """One line per finished hand: dealer, upcard, maker, trump, result."""
    names = game.players
    up = card_name(hand.upcard) if hand.upcard >= 0 else "?"
    head = f"Hand {game.hand_no - 1:>2}  dealer {names[hand.dealer]:<4} up {up}  "
    if hand.result != 0:
        return head + f"thrown in ({hand.reason})"
    maker = names[hand.maker]
    alone = " alone" if hand.alone else ""
    partner = ""
    if hand.rules.call_partner and 0 <= hand.partner < hand.n:
        partner = f" with {names[hand.partner]}"
    pts = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(hand.points) if p)
    return head + (f"{maker} made {SUIT_NAMES[hand.trump]}{alone}{partner}: "
                   f"{hand.maker_tricks()} tricks, {hand.reason} ({pts})")


def register(sub) -> None:
    from euchre import variant_names

    p = sub.add_parser("demo", help="watch heuristic bots play a game with real cards through the rules engine")
    p.add_argument("--variant", default="classic", choices=variant_names())
    p.add_argument("--seed", type=int, default=1, help="seed for the shuffles")
    p.set_defaults(func=lambda args: play_demo(args.variant, seed=args.seed) and 0)
