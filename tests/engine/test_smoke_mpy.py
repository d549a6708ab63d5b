# portable: runs under MicroPython
"""Smoke tests for the MicroPython test harness itself.

They import nothing from euchre, so they prove that the harness (discovery,
the interpreter, PASS/FAIL reporting) works before the engine has tests of
its own. They run both under CPython pytest and under MicroPython via
tests/mpy/run_tests.mjs, and use only plain asserts (no pytest imports) --
the rule for every file carrying the marker line above.
"""

import binascii
import json
import sys


def test_crc32_known_vector():
    # The standard CRC-32 of b"hello"; the save format checksums with it.
    assert binascii.crc32(b"hello") == 0x3610A686


def test_json_round_trip():
    doc = {"scores": [10, 7], "dealer": 2, "names": ["N", "E"], "ok": True, "none": None}
    assert json.loads(json.dumps(doc)) == doc


def test_implementation_name():
    assert sys.implementation.name in ("micropython", "cpython")


def test_asserts_are_live():
    # If asserts were compiled out (optimisation level > 0), every other
    # portable test would pass vacuously.
    try:
        assert False, "expected"
    except AssertionError:
        return
    raise RuntimeError("assert statements are disabled in this interpreter")
