# Bower's Euchre rules engine: every variant, table mode and card mode.
#
# Pure Python that runs unchanged on CPython and MicroPython. Variants are data
# (``Rules``), a hand is a state machine (``Hand``), a game is its event log
# (``Game``, serialised by ``euchre.log``). See engine/README.md.
#
# >>> from euchre import Rules, Game
# >>> g = Game(Rules("classic"))
# >>> g.legal_actions()[:2]
# ['up C', 'up D']

from euchre.cards import card_name, parse_card, parse_cards, card_names
from euchre.rules import Rules, variant_names, VARIANTS, OPTIONS
from euchre.hand import Hand, IllegalAction, CHANCE, TABLE, TERMINAL
from euchre.game import Game

__version__ = "0.1.0"
