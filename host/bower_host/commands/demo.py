"""A scripted demo game: heuristic bots play real cards through the engine,
and each hand is printed the way the device will summarise it.

``bower demo`` also stores each game it plays in the game library (``--db``,
``$BOWER_DB`` or the user's), as device ``demo`` with the game id
``<variant>-<seed>``, so ``games``, ``show``, ``stats``, ``export`` and
``plot`` have something to show on a machine that never saw a Bower device.
The log is the one a device writes (``euchre.log``, a CRC per line), stored
through ``Library.add_log`` like a synced game; the same variant and seed
again is the same game, stored once.

The bots are called ``Bot1`` to ``Bot6``, names no person has, so their
games never count in a person's ``stats`` (``--players`` names them
otherwise, by the device's name rule; the game id then ends in a checksum
of the names, as other players make another game).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import TYPE_CHECKING, Callable, TextIO

from euchre import Game, Rules, log
from euchre.bot import choose
from euchre.cardmode import shuffled_deck
from euchre.cards import SUIT_NAMES, card_name
from euchre.hand import P_TURN
from euchre.notation import outcome_text

if TYPE_CHECKING:
    from euchre import Hand

    from bower_host.db import Library

DEFAULT_NAMES = ["Bot1", "Bot2", "Bot3", "Bot4", "Bot5", "Bot6"]   # (six for Six-Handed)


def play_demo(variant: str = "classic", seed: int = 1, names: list[str] | None = None,
              out: TextIO | None = None, max_hands: int = 200, options: dict | None = None) -> Game:
    """Play one bot game of ``variant`` (card mode) and print it hand by hand;
    ``options``: house rules of the variant (``{"misdeal_passes": True}``)."""
    rules = Rules(variant, options or {})
    n = rules.num_players
    names = (names or DEFAULT_NAMES)[:n]
    rng = random.Random(seed)
    game = Game(rules, names, dealer=rng.randrange(n), cards=True)
    say: Callable[[str], None] = (lambda s: print(s, file=out)) if out else print
    say(f"Bower demo: {rules.title}, {', '.join(names)}; first dealer {names[game.dealer]}")
    if options:
        say("House rules on: " + ", ".join(sorted(options)))
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


def describe_hand(game: Game, hand: Hand) -> str:
    """One line per finished hand: dealer, upcard, maker, trump, result."""
    names = game.players
    up = card_name(hand.upcard) if hand.upcard >= 0 else "?"
    head = f"Hand {game.hand_no - 1:>2}  dealer {names[hand.dealer]:<4} up {up}  "
    if hand.result != 0:
        return head + f"thrown in ({outcome_text(hand.outcome)})"
    maker = names[hand.maker]
    alone = " alone" if hand.alone else ""
    partner = ""
    if hand.rules.call_partner and 0 <= hand.partner < hand.n:
        partner = f" with {names[hand.partner]}"
    pts = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(hand.points or ()) if p)
    return head + (f"{maker} made {SUIT_NAMES[hand.trump]}{alone}{partner}: "
                   f"{hand.maker_tricks()} tricks, {outcome_text(hand.outcome, hand.renege)} ({pts})")


DEMO_DEVICE = "demo"      # the device the library files demo games under


def demo_log(game: Game, key: str, started: int) -> bytes:
    """The game's log as a device writes it (header with id, device, start time)."""
    return log.dumps(game, extra={"id": key, "device": DEMO_DEVICE, "started": started}).encode("utf-8")


def store_demo(library: Library, game: Game, key: str, started: int) -> str:
    """Store a demo game in ``library`` (once per key); returns a line for the user."""
    ref = f"{DEMO_DEVICE}/{key}"
    had = library.find(ref)
    if had:
        return f"Already in the library as game {had[0]['id']} ({ref}): bower show {had[0]['id']}"
    res = library.add_log(demo_log(game, key, started), DEMO_DEVICE, f"{key}.log")
    if res.status != "new":
        from bower_host.errors import CommandError
        raise CommandError(f"the demo game was not stored: {res.message}")
    return f"Stored in the library {library.path} as game {res.game_id} ({ref}): bower show {res.game_id}"


def _players(variant: str, names: list[str] | None) -> tuple[list[str] | None, str]:
    """The ``--players`` names checked for ``variant``, and what the game id ends in for them."""
    if names is None:
        return None, ""
    from zlib import crc32

    from bower_host.errors import CommandError
    from bower_host.names import roster_problem

    rules = Rules(variant)
    if len(names) != rules.num_players:
        raise CommandError(f"--players: {rules.title} is played by {rules.num_players} players; "
                           f"got {len(names)} name(s)")
    why = roster_problem(names)
    if why:
        raise CommandError(f"--players: {why}")
    return names, f"-p{crc32(chr(31).join(names).encode()):08x}"


def _options(variant: str, names: list[str] | None) -> tuple[dict, str]:
    """The ``--option`` house rules switched on, checked by the engine for
    ``variant``, and what the game id ends in for them."""
    if not names:
        return {}, ""
    opts = {n: True for n in names}
    try:
        Rules(variant, opts)
    except ValueError as e:
        from bower_host.errors import CommandError
        raise CommandError(f"--option: {e}") from None
    return opts, "-o" + "+".join(sorted(opts))


def cmd_demo(args: argparse.Namespace) -> int:
    names, tag = _players(args.variant, args.players)
    opts, otag = _options(args.variant, args.option)
    tag += otag
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
    library = None
    if not args.no_store:
        from bower_host.errors import CommandError
        from bower_host.db import Library, LibraryError
        try:
            library = Library(args.db or None)
        except LibraryError as e:
            raise CommandError(str(e)) from None
    try:
        for i in range(args.games):
            if i:
                print()
            game = play_demo(args.variant, seed=seed + i, names=names, options=opts)
            if library is not None:
                print(store_demo(library, game, f"{args.variant}-{seed + i}{tag}", int(time.time())))
    finally:
        if library is not None:
            library.close()
    return 0


def _count(text: str) -> int:
    import argparse
    if not text.isdigit() or not 1 <= int(text) <= 100:
        raise argparse.ArgumentTypeError(f"{text!r}: 1 to 100 games")
    return int(text)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from euchre import variant_names
    from euchre.rules import MORE_VARIANTS

    from bower_host import argtypes as at

    p = sub.add_parser("demo", help="watch heuristic bots play a game with real cards, and store it in the library")
    p.add_argument("--variant", default="classic", choices=list(variant_names()) + list(MORE_VARIANTS))
    p.add_argument("--seed", type=int, help="seed for the shuffles (default: a new one each run; "
                                            "the same seed plays the same game)")
    p.add_argument("--games", type=_count, default=1, metavar="N", help="play N games (seeds SEED, SEED+1, ...)")
    p.add_argument("--players", nargs="+", metavar="NAME", help="the players' names, one per seat, by the device's "
                                                                "rule (default: Bot1, Bot2, ...)")
    p.add_argument("--db", metavar="FILE", type=at.library_file(),
                   help="the game library to store them in (default: $BOWER_DB, else "
                        "bower.sqlite3 in the user data directory)")
    p.add_argument("--option", action="append", metavar="NAME",
                   help="switch a house rule of the variant on (repeatable; e.g. misdeal_passes, std)")
    p.add_argument("--no-store", action="store_true", help="only watch: store nothing")
    p.set_defaults(func=cmd_demo)
