# portable: runs under MicroPython
# Input text reads the same on CPython and MicroPython: an event, a card, a
# suit or a log line's CRC is accepted on one exactly when on the other,
# as the same thing. MicroPython's int() and str methods know ASCII only;
# CPython's also read other scripts' digits ("\u0663" is 3), fold other
# letters ("\u017f".upper() is "S", the Kelvin sign lowers to "k") and
# split at other blanks ("\xa0", "\x1c"). Numbers in events are ASCII digits
# only (int() would also take "+3" and "1_0", on both). Plain asserts.

from euchre import Game, Rules, IllegalAction, parse_card, parse_cards
from euchre.actions import parse_action, action_name
from euchre.cards import parse_suit
from euchre.logline import encode_line, decode_line, LogError

# (text, what it parses to: an action's text, or None: refused)
EVENTS = [
    ("won 3", "won 3"),
    ("won 03", "won 3"),
    ("WON\t3", "won 3"),            # ASCII blanks separate, on both
    (" won  3\n", "won 3"),
    ("won \u0663", None),           # ARABIC-INDIC DIGIT THREE
    ("won \uff13", None),           # FULLWIDTH DIGIT THREE
    ("won +3", None),
    ("won -0", None),
    ("won 1_0", None),
    ("tricks 1_0", None),
    ("notrick 1 \u0662", None),
    ("notrick 1 +2", None),
    ("defend \u0663", None),
    ("won\xa03", None),             # NO-BREAK SPACE
    ("won\u20033", None),           # EM SPACE
    ("won\x1c3", None),             # a control CPython's split() breaks at
    ("won\x1f3", None),
    ("won\x853", None),             # NEXT LINE
    ("won 3\xa0", None),
    ("pass\xa0", None),
    ("tric\u212as 3", None),        # KELVIN SIGN: "k" in CPython's lower()
    ("up \u017f", None),            # LATIN SMALL LETTER LONG S: "S" in upper()
    ("call \u017f", None),
    ("partner A\u017f", None),
    ("order h \u212aalone", None),
    ("A\u017f", None),
    ("\u212aH", None),
]


def test_events_parse_alike():
    bad = []
    for text, want in EVENTS:
        try:
            got = action_name(parse_action(text)[0])
        except ValueError:
            got = None
        if got != want:
            bad.append((text, got, want))
    assert not bad, bad


def test_a_game_refuses_a_foreign_digit_and_changes_nothing():
    g = Game(Rules("classic"), dealer=0)
    for e in ["up H", "pass", "order"]:
        g.apply(e)
    for text in ["won \u0663", "won\xa03", "won +3", "tricks \u0663", "claim \uff12", "renege 1_0"]:
        try:
            g.apply(text)
        except IllegalAction:
            pass
        else:
            raise AssertionError("accepted %r" % text)
        assert g.events() == ["up H", "pass", "order"], text
    g.apply("won 3")
    assert g.events()[-1] == "won 3"


def test_cards_and_suits_parse_alike():
    assert parse_card(" 10h ") == parse_card("TH")
    assert parse_cards("9H\tTH/JD") == parse_cards("9H TH JD")
    assert parse_suit("Hearts") == 2
    for text in ["A\u017f", "\u212aH", "JH\xa0", "\xa0JH", "JH\x1c", "1\u0660H", "\uff2aH"]:
        try:
            parse_card(text)
        except ValueError:
            continue
        raise AssertionError("a card: %r" % text)
    for text in ["9H\xa0TH", "9H\x1cTH"]:
        try:
            parse_cards(text)
        except ValueError:
            continue
        raise AssertionError("cards: %r" % text)
    for text in ["\u017f", "\u017fpades", "hearts\xa0", "HEA\u212aRTS"]:
        try:
            parse_suit(text)
        except ValueError:
            continue
        raise AssertionError("a suit: %r" % text)


def test_a_log_lines_crc_reads_alike():
    # A line whose CRC starts with 0, so that other spellings of the same
    # number fit its eight characters. int() reads a sign, a blank or an
    # underscore alike on both (accepted); other scripts' digits only on
    # CPython (refused).
    i = 0
    while encode_line("x%d" % i)[-11] != "0":
        i += 1
    line = encode_line("x%d" % i)
    crc = line[-11:-3]
    for same in [crc, crc.upper(), "+" + crc[1:], " " + crc[1:], crc[1] + "_" + crc[2:]]:
        assert decode_line(line.replace(crc, same)) == "x%d" % i, same
    digits = "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669"
    other = "".join([digits[int(c)] if c in "0123456789" else c for c in crc])
    try:
        decode_line(line.replace(crc, other))
    except LogError as e:
        assert "CRC" in str(e)
    else:
        raise AssertionError("read a CRC written %r" % other)
