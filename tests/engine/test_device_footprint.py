"""What a device game loads, and the error-message catalogue (CPython only).

The device (table mode) loads exactly the engine modules in ``DEVICE`` and
never the ones kept out of its RAM: card mode, whole-log reading
(``euchre.logfile``) and the ``euchre.log`` face over it (the device imports
the line codec, ``euchre.logline``, itself), the error messages
(``euchre.messages``), the illegal-action explanations (``euchre.why``), the
bot, the notation labels and the variant aliases (``euchre.names``). A fresh
interpreter plays a table-mode game the way the device does (events as
text, each one logged as a line and read back, a resume from a checkpoint)
and lists what got imported; the firmware's own imports of the engine,
module-level or inside functions, name only device modules. A new module the
device needs goes into ``DEVICE`` here, with its heap cost in the commit.

Messages (``error_text(key, ...)``) are looked up by key only when raised, so a key typo would hide
until then: every key used in the engine must be in the catalogue.
"""

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine" / "euchre"

DEVICE_GAME = r"""
import sys
sys.path.insert(0, sys.argv[1])
import euchre, euchre.logline
from euchre import Game, Rules
from euchre.hand import IllegalAction
from euchre.logline import encode_line, decode_line, header_payload
from euchre.game import game_from_header

g = Game(Rules("five", winning_score=6), ["A", "B", "C", "D", "E"], dealer=0)
lines = [encode_line(header_payload(g))]
while not g.is_terminal():
    legal = g.legal_actions()
    e = [a for a in legal if not a.startswith(("redeal", "claim", "renege", "throwin", "quick"))][-1]
    g.apply(e)
    lines.append(encode_line(e))
r = game_from_header(decode_line(lines[0]))
for line in lines[1:]:
    r.apply(decode_line(line))
assert r.scores == g.scores and r.result == g.result
ck = r.checkpoint()
r.restore(ck)
print(" ".join(sorted(m for m in sys.modules if m.startswith("euchre"))))
"""

DEVICE = {"euchre", "euchre.actions", "euchre.cards", "euchre.game", "euchre.hand",
          "euchre.legal", "euchre.logline", "euchre.phases", "euchre.rules"}
KEPT_OUT = ("euchre.cardmode", "euchre.log", "euchre.logfile", "euchre.messages", "euchre.why",
            "euchre.bot", "euchre.notation", "euchre.names", "euchre.morevariants")


def test_a_device_game_loads_only_the_device_modules():
    out = subprocess.run([sys.executable, "-c", DEVICE_GAME, str(ROOT / "engine")],
                         capture_output=True, text=True, check=True, timeout=120).stdout.split()
    for m in KEPT_OUT:
        assert m not in out, (m, out)
    assert set(out) == DEVICE, sorted(set(out) ^ DEVICE)


# The variants for three, six and two players (euchre.morevariants): a
# device loads their data for the first game of one of them, and only then.
LAZY_GAME = r"""
import sys
sys.path.insert(0, sys.argv[1])
from euchre import Game, Rules
from euchre.logline import encode_line, decode_line, header_payload
from euchre.game import game_from_header

def play(variant):
    g = Game(Rules(variant, winning_score=4), None, dealer=0)
    lines = [encode_line(header_payload(g))]
    while not g.is_terminal():
        legal = [a for a in g.legal_actions()
                 if not a.startswith(("redeal", "claim", "renege", "throwin", "quick"))]
        g.apply(legal[-1])
        lines.append(encode_line(legal[-1]))
    r = game_from_header(decode_line(lines[0]))
    for line in lines[1:]:
        r.apply(decode_line(line))
    assert r.scores == g.scores and r.result == g.result

play("classic")
assert "euchre.morevariants" not in sys.modules
for v in ("three", "six", "two"):
    play(v)
print(" ".join(sorted(m for m in sys.modules if m.startswith("euchre"))))
"""


def test_a_variant_for_three_six_or_two_loads_its_data_when_played():
    out = subprocess.run([sys.executable, "-c", LAZY_GAME, str(ROOT / "engine")],
                         capture_output=True, text=True, check=True, timeout=60).stdout.split()
    assert set(out) == DEVICE | {"euchre.morevariants"}, sorted(set(out) ^ DEVICE)


def test_the_hosts_list_of_those_variants_is_theirs():
    # euchre.rules' MORE_VARIANTS (the host's) names euchre.morevariants'
    # variants, in its menu order.
    sys.path.insert(0, str(ROOT / "engine"))
    from euchre import morevariants, rules
    assert rules.MORE_VARIANTS == morevariants.NAMES
    assert sorted(morevariants.NAMES) == sorted(morevariants.VARIANTS)
    for v in morevariants.NAMES:
        assert rules.variant_data(v) is morevariants.VARIANTS[v]
        assert v not in rules.VARIANTS and v not in rules.variant_names()


def _engine_imports(path):
    # (module, line) of each euchre import in ``path``, at any level.
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "euchre"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "euchre":
            if node.module == "euchre":
                # (from euchre import hand: a submodule; from euchre import Game: the package)
                for a in node.names:
                    sub = "euchre." + a.name
                    out.append((sub if (ENGINE / (a.name + ".py")).exists() else "euchre", node.lineno))
            else:
                out.append((node.module, node.lineno))
    return out


def test_a_game_in_quick_score_adds_only_euchre_quick():
    # Quick score (issue 25): the same device game told quick loads its
    # module too, and nothing else kept out.
    quick = DEVICE_GAME.replace(
        'if not a.startswith(("redeal", "claim", "renege", "throwin", "quick"))][-1]',
        'if a in ("quick 0", "alone", "quick made")][0]')
    assert quick != DEVICE_GAME
    out = subprocess.run([sys.executable, "-c", quick, str(ROOT / "engine")],
                         capture_output=True, text=True, check=True, timeout=120).stdout.split()
    assert set(out) == DEVICE | {"euchre.quick"}, sorted(set(out) ^ DEVICE)


def test_an_amendment_adds_only_euchre_amend_and_euchre_quick():
    # Amending a hand (issue 25): the game loads euchre.amend with the
    # first ``amend N`` and the hand is entered again quick; nothing else.
    amended = DEVICE_GAME.replace("r = game_from_header(", 'e = "amend %d" % g.amendable()[0]\n'
                                  'g.apply(e)\n'
                                  'lines.append(encode_line(e))\n'
                                  'for e in ("quick 0", "alone", "quick made"):\n'
                                  '    if e in g.legal_actions():\n'
                                  '        g.apply(e)\n'
                                  '        lines.append(encode_line(e))\n'
                                  'assert g.last_amend\n'
                                  'r = game_from_header(', 1)
    assert amended != DEVICE_GAME
    out = subprocess.run([sys.executable, "-c", amended, str(ROOT / "engine")],
                         capture_output=True, text=True, check=True, timeout=120).stdout.split()
    assert set(out) == DEVICE | {"euchre.quick", "euchre.amend"}, sorted(set(out) ^ DEVICE)


def test_the_firmware_imports_only_device_modules():
    found = {}
    for path in sorted((ROOT / "firmware").rglob("*.py")):
        for module, line in _engine_imports(path):
            found.setdefault(module, []).append("%s:%d" % (path.relative_to(ROOT), line))
    assert "euchre.hand" in found and "euchre.logline" in found, found
    # (euchre.quick: what a game in quick score loads, euchre.amend what an
    # amendment loads, see above)
    extra = {m: where for m, where in found.items() if m not in DEVICE | {"euchre.quick", "euchre.amend"}}
    assert not extra, extra


def _keys_used():
    # The first argument of message(...), _error(...) calls in the engine.
    keys = {}
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("message", "error_text") and node.args
                    and isinstance(node.args[0], ast.Constant)):
                keys.setdefault(node.args[0].value, []).append(f"{path.name}:{node.lineno}")
    return keys


def test_every_message_key_is_in_the_catalogue():
    sys.path.insert(0, str(ROOT / "engine"))
    from euchre import messages
    keys = _keys_used()
    assert len(keys) >= 10, keys
    missing = {k: v for k, v in keys.items() if k not in messages._TEXT}
    assert not missing, missing
    unused = set(messages._TEXT) - set(keys)
    assert not unused, unused
