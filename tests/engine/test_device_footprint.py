"""What a device game loads, and the error-message catalogue (CPython only).

The device (table mode) must not pull in the modules kept out of its RAM:
card mode, whole-log reading (``euchre.logfile``), the error messages
(``euchre.messages``), the illegal-action explanations (``euchre.why``), the
bot, the notation labels and the variant aliases (``euchre.names``). A fresh interpreter plays a table-mode game the
way the device does (events as text, each one logged as a line and read
back, a resume from a checkpoint) and lists what got imported.

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
import euchre, euchre.log
from euchre import Game, Rules, IllegalAction
from euchre.log import encode_line, decode_line, header_payload
from euchre.game import game_from_header

g = Game(Rules("five", winning_score=6), ["A", "B", "C", "D", "E"], dealer=0)
lines = [encode_line(header_payload(g))]
while not g.is_terminal():
    legal = g.legal_actions()
    e = [a for a in legal if not a.startswith(("redeal", "claim", "renege", "throwin"))][-1]
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

KEPT_OUT = ("euchre.cardmode", "euchre.logfile", "euchre.messages", "euchre.why",
            "euchre.bot", "euchre.notation", "euchre.names")


def test_a_device_game_loads_only_the_device_modules():
    out = subprocess.run([sys.executable, "-c", DEVICE_GAME, str(ROOT / "engine")],
                         capture_output=True, text=True, check=True).stdout.split()
    assert "euchre.game" in out and "euchre.log" in out, out
    for m in KEPT_OUT:
        assert m not in out, (m, out)


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
