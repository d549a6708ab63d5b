# The types of the package face, for type checkers and editors only.
#
# __init__.py loads each public name's module on first use (a module
# __getattr__), which a type checker reads as "anything"; this stub names
# the real definitions instead. Never deployed (only .py files are), never
# run. tests/engine/test_stubs.py checks it lists exactly __init__.py's
# names.

from euchre.actions import IllegalAction as IllegalAction
from euchre.cards import card_name as card_name
from euchre.cards import card_names as card_names
from euchre.cards import parse_card as parse_card
from euchre.cards import parse_cards as parse_cards
from euchre.game import Game as Game
from euchre.hand import Hand as Hand
from euchre.phases import CHANCE as CHANCE
from euchre.phases import TABLE as TABLE
from euchre.phases import TERMINAL as TERMINAL
from euchre.rules import OPTIONS as OPTIONS
from euchre.rules import VARIANTS as VARIANTS
from euchre.rules import Rules as Rules
from euchre.rules import variant_names as variant_names
