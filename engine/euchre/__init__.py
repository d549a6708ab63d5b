# Bower's Euchre rules engine: every variant, table mode and card mode.
#
# Pure Python that runs unchanged on CPython and MicroPython. Variants are data
# (``Rules``), a hand is a state machine (``Hand``), a game is its event log
# (``Game``, serialised by ``euchre.log``). See engine/README.md. For the
# device: no rule enforced with assert (firmware/DEVICE.md, 7), plain loops
# (firmware/DEVICE.md, 3), ids, not words (firmware/DEVICE.md, 2).
#
# >>> from euchre import Rules, Game
# >>> g = Game(Rules("classic"))
# >>> g.legal_actions()[:2]
# ['up C', 'up D']
#
# The names below load their module on first use (PEP 562's module
# ``__getattr__``, which MicroPython has too): the device boots to its home
# screen with only ``euchre.log`` imported, and the rules, hands and games
# load when a game needs them.
#
# Docstrings and comments cite the rule sources by number, the files of
# ../shared/seeds/ (docs/RULES.md states every rule): 000 Five-Handed
# (000_93089922ad7d5145.txt), 001 Call-Your-Partner (001_02801dca7f87cf1e.txt),
# 002 Ultimate and the common four-player rules (002_b3fca62c46b72403.txt),
# 003 Classic with house rules (003_2434ab160294ee77.txt), 004 Classic as a
# book chapter (004_ae6657ff59971852.txt).

# Public name -> the module that defines it.
_HOME = {"card_name": "cards", "parse_card": "cards", "parse_cards": "cards", "card_names": "cards",
         "Rules": "rules", "variant_names": "rules", "VARIANTS": "rules", "OPTIONS": "rules",
         "Hand": "hand", "IllegalAction": "actions", "CHANCE": "phases", "TABLE": "phases",
         "TERMINAL": "phases", "Game": "game"}


def __getattr__(name):
    # A public name, or a submodule (``from euchre import hand``: MicroPython
    # asks this function before it looks for the submodule).
    mod = _HOME.get(name)
    try:
        m = __import__("euchre." + (mod or name), None, None, ("_",))
    except ImportError:
        raise AttributeError("module 'euchre' has no attribute '%s'" % name)
    return getattr(m, name) if mod else m
