# portable: runs under MicroPython
"""The game log: JSON lines ``[PAYLOAD,"crc32"]``, header first (euchre.log).

A golden log of a short scripted table-mode Classic game is pinned byte for
byte; the reader's recovery rules are checked on damaged copies of it: a
torn or corrupt *last* line is dropped and reported (a power cut while
appending), a corrupt earlier line, a refused event, garbage such as a REPL
banner, an empty log are LogErrors that name the line.

Plain asserts only (this file also runs under MicroPython: keep it fast).
"""

import binascii

from euchre import Rules, Game, IllegalAction, log
from helpers import CLASSIC_TO_5, fingerprint

# The scripted game: helpers.CLASSIC_TO_5 (Classic to 5, table mode, dealer 0).
EVENTS = CLASSIC_TO_5

# Keys sorted, ", " and ": " separators, non-ASCII escaped: the same text on
# CPython and MicroPython (whose dicts do not keep insertion order).
GOLDEN_HEADER = (
    '[{"dealer": 0, "format": 1, "mode": "table", "options": {"ace_no_face": false, '
    '"canadian": false, "defend_alone": false, "farmers": false, '
    '"farmers_nines_only": false, "farmers_no_call": false, "joker": false, '
    '"loner_lead": "LEFT_OF_DEALER", "partners_best": false, "renege_deduct": false, '
    '"std": false, "winning_score": 5}, "players": ["Ann", "Bob", "Cy", "Di"], '
    '"variant": "classic"},"d06a482c"]\n')

GOLDEN_EVENTS = """["up H","742608b4"]
["pass","062bc8ef"]
["order","8dcfcae4"]
["tricks 3","f578e077"]
["up S","dd10c32e"]
["pass","062bc8ef"]
["pass","062bc8ef"]
["pass","062bc8ef"]
["pass","062bc8ef"]
["call D alone","ff7d5da6"]
["won 2","13aff96b"]
["won 2","13aff96b"]
["won 1","3882aaa8"]
["won 2","13aff96b"]
["won 2","13aff96b"]
["up C","97d2d17f"]
["order alone","bc62f62d"]
["won 3","0ab4c82a"]
["won 3","0ab4c82a"]
["won 3","0ab4c82a"]
["won 3","0ab4c82a"]
["won 3","0ab4c82a"]
["redeal","c8c8f74d"]
["up D","d89347b8"]
["pass","062bc8ef"]
["order","8dcfcae4"]
["tricks 1","c74e82f5"]
["up S","dd10c32e"]
["order","8dcfcae4"]
["tricks 5","a32247f1"]
"""

GOLDEN = GOLDEN_HEADER + GOLDEN_EVENTS


def scripted(events=EVENTS):
    g = Game(Rules("classic", winning_score=5), ["Ann", "Bob", "Cy", "Di"], dealer=0)
    for e in events:
        g.apply(e)
    return g


def lines_of(text):
    """Lines with their newlines (str.splitlines(True) is not in MicroPython)."""
    out = []
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        if end < 0:
            out.append(text[start:])
            break
        out.append(text[start:end + 1])
        start = end + 1
    return out


def raises(fn, exc=log.LogError):
    """Call fn; return the message of the ``exc`` it must raise."""
    try:
        fn()
    except exc as e:
        return str(e)
    raise AssertionError("expected %s" % exc.__name__)


def header_line():
    return lines_of(GOLDEN)[0]


# ----- the golden log ------------------------------------------------------

def test_scripted_game_scores():
    g = scripted()
    assert g.scores == [4, 6, 4, 6]
    assert g.is_terminal()
    assert tuple(g.result[0]) == (1, 3)
    assert g.hand_no == 7  # five scored hands, one misdeal, the next number


def test_golden_event_lines_byte_exact():
    text = log.dumps(scripted())
    lines = lines_of(text)
    assert len(lines) == 1 + len(EVENTS)
    assert "".join(lines[1:]) == GOLDEN_EVENTS


def test_golden_header_line_byte_exact():
    # The header must be written the same way on the device (MicroPython)
    # as on the host: a log is compared and checksummed as text.
    text = log.dumps(scripted())
    assert lines_of(text)[0] == GOLDEN_HEADER


def test_golden_log_byte_exact():
    assert log.dumps(scripted()) == GOLDEN


def test_every_line_crc_is_crc32_of_its_payload():
    for line in lines_of(GOLDEN) + lines_of(log.dumps(scripted())):
        assert line[0] == "[" and line[-13:-11] == ',"' and line[-3:] == '"]\n', line
        payload = line[1:-13]
        crc = line[-11:-3]
        assert crc == crc.lower() and len(crc) == 8
        assert binascii.crc32(payload.encode()) & 0xFFFFFFFF == int(crc, 16), line
        assert log.crc32(payload.encode()) == int(crc, 16)


def test_encode_decode_line():
    assert log.encode_line("pass") == '["pass","062bc8ef"]\n'
    assert log.decode_line('["pass","062bc8ef"]\n') == "pass"
    assert log.decode_line('["pass","062bc8ef"]') == "pass"
    assert log.decode_line('["pass","062bc8ef"]\r\n') == "pass"
    assert log.decode_line(log.encode_line({"a": [1, 2]})) == {"a": [1, 2]}
    msg = raises(lambda: log.decode_line('["pass","062bc8ee"]\n', 7))
    assert "line 7" in msg


def test_bitwise_crc_matches_binascii():
    # The fallback CRC for ports without binascii.crc32 (euchre.logline's).
    from euchre import logline
    assert log.crc32 is logline.crc32
    for data in (b"", b"a", b"hello", b'"call D alone"'):
        want = binascii.crc32(data) & 0xFFFFFFFF
        saved = logline._crc32
        logline._crc32 = None
        try:
            got = log.crc32(data)
        finally:
            logline._crc32 = saved
        assert got == want, data


def test_golden_loads_to_the_same_game():
    g, dropped = log.loads(GOLDEN)
    assert dropped is None
    want = scripted()
    assert g.scores == want.scores == [4, 6, 4, 6]
    assert g.result == want.result
    assert g.events() == EVENTS
    assert g.players == ["Ann", "Bob", "Cy", "Di"]
    assert g.rules.winning_score == 5
    assert fingerprint(g) == fingerprint(want)


def test_round_trip_dumps_loads_dumps():
    for n in (0, 1, 4, 10, 16, 23, len(EVENTS)):
        g = scripted(EVENTS[:n])
        text = log.dumps(g)
        g2, dropped = log.loads(text)
        assert dropped is None
        assert log.dumps(g2) == text
        assert fingerprint(g2) == fingerprint(g)


def test_non_ascii_names_header_byte_exact():
    g = Game(Rules("five"), ["Zo\u00eb", "Jos\u00e9", "\u0141ukasz", "Bj\u00f6rk", '"Q\\'],
             dealer=2)
    want = ('[{"dealer": 2, "format": 1, "mode": "table", "options": '
            '{"alternate_ending": false, "four_eights": false, "jokers": false, '
            '"winning_score": 10}, "players": ["Zo\\u00eb", "Jos\\u00e9", '
            '"\\u0141ukasz", "Bj\\u00f6rk", "\\"Q\\\\"], "variant": "five"},"%08x"]\n')
    text = log.dumps(g)
    payload = text[1:text.index(',"', len(text) - 14)]
    assert text == want % (binascii.crc32(payload.encode()) & 0xFFFFFFFF), text
    assert text == want % 0x12d1de11
    g2, dropped = log.loads(text)
    assert g2.players == g.players
    assert log.dumps(g2) == text


def test_non_bmp_player_name_round_trip():
    # A name outside the Basic Multilingual Plane must read back as the same
    # one character on every port (MicroPython's json does not join a
    # \ud83c\udccf surrogate pair into one).
    name = "\U0001F0CF Joker"
    g = Game(Rules("classic"), [name, "B", "C", "D"])
    g2, dropped = log.loads(log.dumps(g))
    assert len(g2.players[0]) == len(name)
    assert g2.players[0] == name


def test_round_trip_card_mode():
    g = Game(Rules("classic"), dealer=3, cards=True)
    g.apply("deal 9C TC JC QC KC/AC 9D TD JD QD/KD AD 9H TH JH/QH KH AH 9S TS/JS QS KS AS")
    for _ in range(12):  # bids, the discard, the first plays
        g.apply(g.legal_actions()[-1])
    text = log.dumps(g)
    lines = lines_of(text)
    assert '"mode": "cards"' in lines[0]
    assert log.decode_line(lines[1]) == \
        "deal 9C TC JC QC KC/AC 9D TD JD QD/KD AD 9H TH JH/QH KH AH 9S TS/JS QS KS AS"
    g2, dropped = log.loads(text)
    assert dropped is None and g2.cards
    assert fingerprint(g2) == fingerprint(g)
    assert log.dumps(g2) == text


def test_read_lines():
    header, events, dropped = log.read_lines(lines_of(GOLDEN)[:4])
    assert header["variant"] == "classic" and header["format"] == 1
    assert header["players"] == ["Ann", "Bob", "Cy", "Di"]
    assert header["mode"] == "table" and header["dealer"] == 0
    assert events == [(2, "up H"), (3, "pass"), (4, "order")]
    assert dropped is None


# ----- a damaged last line is dropped ----------------------------------------

def test_truncated_last_line_is_dropped():
    lines = lines_of(GOLDEN)
    body = "".join(lines[:-1])
    last = lines[-1]
    want = scripted(EVENTS[:-1])
    for cut in (1, 2, 5, 10, len(last) - 12, len(last) - 3, len(last) - 2):
        g, dropped = log.loads(body + last[:cut])
        assert dropped is not None, cut
        assert "line %d" % len(lines) in dropped, dropped
        assert g.events() == EVENTS[:-1]
        assert g.scores == [4, 4, 4, 4] and not g.is_terminal()
        assert fingerprint(g) == fingerprint(want)


def test_last_line_without_newline_is_whole():
    g, dropped = log.loads(GOLDEN[:-1])
    assert dropped is None
    assert g.events() == EVENTS and g.is_terminal()


def test_corrupted_last_line_is_dropped():
    lines = lines_of(GOLDEN)
    body = "".join(lines[:-1])
    last = lines[-1]  # ["tricks 5","a32247f1"]
    for i in (0, 3, 8, 10, 13, 19, len(last) - 2):
        c = last[i]
        flipped = last[:i] + chr(ord(c) ^ 1) + last[i + 1:]
        g, dropped = log.loads(body + flipped)
        assert dropped is not None, i
        assert "line %d" % len(lines) in dropped
        assert g.events() == EVENTS[:-1]


def test_torn_header_of_a_new_log():
    # Power cut while writing line 1: nothing to replay, and the reader
    # says so rather than inventing a game.
    msg = raises(lambda: log.loads(GOLDEN_HEADER[:40]))
    assert "empty log" in msg and "line 1" in msg


# ----- damage before the last line is an error ------------------------------

def test_corrupted_earlier_line_raises_naming_it():
    lines = lines_of(GOLDEN)
    for n in (2, 5, 17, len(lines) - 1):
        bad = list(lines)
        line = bad[n - 1]
        bad[n - 1] = line[:3] + chr(ord(line[3]) ^ 2) + line[4:]
        msg = raises(lambda bad=bad: log.loads("".join(bad)))
        assert "line %d" % n in msg, (n, msg)
        # Torn in the middle (a line cut short, the rest still there).
        bad[n - 1] = line[:6] + "\n"
        msg = raises(lambda bad=bad: log.loads("".join(bad)))
        assert "line %d" % n in msg, (n, msg)


def test_corrupted_header_raises():
    lines = lines_of(GOLDEN)
    bad = lines[0].replace('"Ann"', '"Anne"')
    msg = raises(lambda: log.loads(bad + "".join(lines[1:])))
    assert "line 1" in msg


def test_header_only_log():
    g, dropped = log.loads(GOLDEN_HEADER)
    assert dropped is None
    assert g.events() == [] and g.scores == [0, 0, 0, 0]
    assert g.players == ["Ann", "Bob", "Cy", "Di"]
    assert g.rules.winning_score == 5 and not g.cards
    assert g.legal_actions()[:4] == ["up C", "up D", "up H", "up S"]
    text = log.dumps(scripted([]))
    assert len(lines_of(text)) == 1
    g, dropped = log.loads(text)
    assert dropped is None and log.dumps(g) == text


def test_empty_log_raises():
    assert "empty" in raises(lambda: log.loads(""))
    raises(lambda: log.loads("\n"))
    raises(lambda: log.read_lines([]))


def test_undo_lines_are_applied():
    u = log.encode_line("undo")
    lines = lines_of(GOLDEN)
    # up H, pass, (undo pass), pass, order, tricks 3
    text = lines[0] + lines[1] + lines[2] + u + lines[2] + lines[3] + lines[4]
    g, dropped = log.loads(text)
    assert dropped is None
    assert g.events() == ["up H", "pass", "order", "tricks 3"]
    assert g.scores == [1, 0, 1, 0]
    # Undo twice, then a different bid: seat 1 orders instead.
    text = lines[0] + lines[1] + lines[2] + lines[3] + u + u + log.encode_line("order") + \
        log.encode_line("tricks 5")
    g, dropped = log.loads(text)
    assert g.events() == ["up H", "order", "tricks 5"]
    assert g.scores == [0, 2, 0, 2]
    # Undo across a hand boundary and past the game's end.
    g, dropped = log.loads(GOLDEN + u + u)
    assert g.events() == EVENTS[:-2] and not g.is_terminal()
    assert fingerprint(g) == fingerprint(scripted(EVENTS[:-2]))


def test_undo_with_nothing_to_undo_raises():
    msg = raises(lambda: log.loads(GOLDEN_HEADER + log.encode_line("undo")))
    assert "line 2" in msg
    lines = lines_of(GOLDEN)
    u = log.encode_line("undo")
    msg = raises(lambda: log.loads(lines[0] + lines[1] + u + u + lines[1]))
    assert "line 4" in msg


def test_refused_event_raises_naming_its_line():
    lines = lines_of(GOLDEN)
    # Round 1: nobody may name a suit yet.
    text = "".join(lines[:3]) + log.encode_line("call H") + "".join(lines[3:])
    msg = raises(lambda: log.loads(text))
    assert "line 4" in msg and "call H" in msg
    # An event after the game is over.
    msg = raises(lambda: log.loads(GOLDEN + log.encode_line("up H")))
    assert "line %d" % (len(lines) + 1) in msg
    # Not an action at all.
    msg = raises(lambda: log.loads(lines[0] + log.encode_line("hello")))
    assert "line 2" in msg
    # A refused event is also an error as the last line: the CRC is good, so
    # it is no torn write.
    msg = raises(lambda: log.loads(lines[0] + lines[1] + log.encode_line("tricks 3")))
    assert "line 3" in msg


def test_event_must_be_a_string():
    lines = lines_of(GOLDEN)
    msg = raises(lambda: log.loads(lines[0] + log.encode_line(3) + lines[1]))
    assert "line 2" in msg
    msg = raises(lambda: log.loads(lines[0] + log.encode_line(["pass"]) + lines[1]))
    assert "line 2" in msg


def test_header_must_be_a_bower_header():
    msg = raises(lambda: log.loads(log.encode_line("up H") + log.encode_line("pass")))
    assert "line 1" in msg
    msg = raises(lambda: log.loads(log.encode_line({"format": 99, "variant": "classic"})))
    assert "line 1" in msg
    bad = log.encode_line({"format": 1, "variant": "whist", "players": ["A", "B", "C", "D"],
                           "dealer": 0, "mode": "table"})
    assert "line 1" in raises(lambda: log.loads(bad))
    bad = log.encode_line({"format": 1, "variant": "classic", "dealer": 0})
    assert "line 1" in raises(lambda: log.loads(bad))


BANNER = ("MicroPython v1.28.0 on 2026-04-06; Raspberry Pi Pico with RP2040\n"
          'Type "help()" for more information.\n'
          ">>> \n")


def test_repl_banner_is_rejected():
    lines = lines_of(GOLDEN)
    # Before the header: line 1 is no log line.
    msg = raises(lambda: log.loads(BANNER + GOLDEN))
    assert "line 1" in msg
    # In the middle of a log.
    text = "".join(lines[:5]) + BANNER + "".join(lines[5:])
    msg = raises(lambda: log.loads(text))
    assert "line 6" in msg
    # A banner alone is not a log.
    assert "line 1" in raises(lambda: log.loads(BANNER))
    # Banner-like text that happens to end like a log line still fails its CRC.
    msg = raises(lambda: log.loads(lines[0] + '[">>> print(1)","00000000"]\n' + lines[1]))
    assert "line 2" in msg
    # Prompt junk as the very last line is a torn line: dropped, reported.
    g, dropped = log.loads("".join(lines[:5]) + ">>> ")
    assert dropped is not None and "line 6" in dropped
    assert g.events() == EVENTS[:4]


def test_loads_leaves_apply_errors_as_log_errors():
    # LogError is a ValueError; an IllegalAction never escapes loads.
    assert issubclass(log.LogError, ValueError)
    try:
        log.loads(GOLDEN_HEADER + log.encode_line("order"))
    except log.LogError:
        pass
    except IllegalAction:
        raise AssertionError("IllegalAction escaped log.loads") from None
