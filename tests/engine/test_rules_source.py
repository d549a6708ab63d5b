"""Each rule stated once, read from the source (CPython only: ast).

euchre.why words a refused action by asking the hand's rule methods (see
"the rules" in euchre.hand), not by restating their conditions; and every
outcome code euchre.hand sets is one of ``OUTCOMES``, each set somewhere.
"""

import ast
import pathlib

from euchre import hand as H

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine" / "euchre"

RULE_METHODS = ("must_call", "may_call", "ways", "declaring", "may_declare", "partner_bar",
                "lone_defenders")


def test_why_asks_the_hands_rules():
    src = (ENGINE / "why.py").read_text()
    tree = ast.parse(src)
    called = {n.func.attr for n in ast.walk(tree)
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    for m in RULE_METHODS:
        assert hasattr(H.Hand, m), m
        assert m in called, "euchre.why does not ask h.%s()" % m
    # The conditions those methods state, which why.py must not restate.
    code = "\n".join(line.split("#")[0] for line in src.splitlines())
    for restated in ("r.std", "turned_down", "r.canadian", "dealer + 2", "bids == 0", "P_DECLARE",
                     "side_of(h.maker)", "h.farmer < 0", "h.twos < 0"):
        assert restated not in code, restated


def _codes_set_in_hand():
    tree = ast.parse((ENGINE / "hand.py").read_text())
    codes = set()
    for n in ast.walk(tree):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "_over"
                and len(n.args) >= 2):
            codes.add(_text(n.args[1]))
        if isinstance(n, ast.FunctionDef) and n.name == "score_hand":
            for m in ast.walk(n):
                value = m.value if isinstance(m, (ast.Assign, ast.Return)) else None
                if isinstance(value, ast.Tuple) and len(value.elts) == 2 and _text(value.elts[1]):
                    # (v, code) and the renege's return (points, code)
                    codes.add(_text(value.elts[1]))
    return codes


def _text(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def test_outcome_codes_are_listed_once():
    assert len(set(H.OUTCOMES)) == len(H.OUTCOMES)
    assert _codes_set_in_hand() == set(H.OUTCOMES)


def test_every_outcome_code_has_its_words():
    # The words for people come from the code, one table (euchre.notation).
    from euchre.notation import OUTCOME_TEXT, outcome_text
    assert list(OUTCOME_TEXT) == H.OUTCOMES
    assert outcome_text("renege", 3) == "renege by seat 3"
    assert outcome_text("best_march") == "lone march with partner's best"
