# portable: runs under MicroPython
# Logs are byte-identical whichever interpreter writes them: the Pico writes,
# the computer verifies and replays (engine/README.md, log format).

from euchre import Game, Rules
from euchre import log


def test_header_keys_are_sorted_and_non_ascii_escaped():
    g = Game(Rules("five"), ["Zoë", "Bob", "Cy", "Dé", "Eve 😀"], dealer=3)
    line = log.dumps(g).split("\n")[0]
    want = ('[{"dealer": 3, "format": 1, "mode": "table", "options": {"alternate_ending": false, '
            '"four_eights": false, "jokers": false, "winning_score": 10}, "players": '
            '["Zo\\u00eb", "Bob", "Cy", "D\\u00e9", "Eve 😀"], "variant": "five"}')
    assert line.startswith(want + ',"'), line
    assert line == want + ",\"%08x\"]" % log.crc32(want[1:].encode())


def test_escapes_match_json_and_round_trip():
    for text in ('plain', 'quote " and \\ backslash', 'tab\tnew\nline\r\x08\x0c', 'ctl\x01', 'ünï', '😀'):
        line = log.encode_line({"players": [text]})
        assert log.decode_line(line) == {"players": [text]}


def test_crc32_matches_the_ieee_check_value():
    assert log.crc32(b"123456789") == 0xCBF43926
    assert log.crc32(b"") == 0
