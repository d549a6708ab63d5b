# portable: runs under MicroPython
# The short ways through a hand (issue 13, section 7), by raw key presses
# on the real UI core: a bid is a yes/no question (OK orders, BACK passes),
# round 2 offers "next" first, suit and seat lists start mid-list, the
# partner card list puts the likeliest calls first and going alone one UP
# away, a throw-in sits right after the trick counts, and who throws in
# starts among those who need not hold trump. The tests check the game the
# presses made (and the log lines, where the keys' timing matters).

from uikit import Driver
from bower import keys as K
from bower.menu import SUITS
from euchre import hand as H


def start(variant, options=None):
    d = Driver()
    d.new_game(variant, options)
    return d




def cursor_row(d):
    m = d.top()
    return m.text(m.cursor)


def keys(d, text):
    d.keys(text)
    d.app.tick(d.now)


def test_the_upcard_cursor_starts_mid_list_and_wraps_to_every_suit():
    d = start("classic")
    assert cursor_row(d).endswith("hearts")
    keys(d, "o")                       # hearts in one press
    assert d.app.game.hand.up_suit == 2
    d = start("classic")
    keys(d, "uuo")                     # clubs two UPs away
    assert d.app.game.hand.up_suit == 0
    d = start("classic")
    keys(d, "do")                      # spades one DOWN away
    assert d.app.game.hand.up_suit == 3


def test_back_passes_a_seat_and_ok_orders_up():
    d = start("classic")
    keys(d, "o")                       # hearts up, Bob bids first
    assert cursor_row(d) == "order up"
    assert "pass (BACK)" in [d.top().text(i) for i in range(len(d.top().items))]
    keys(d, "b")                       # Bob passes
    h = d.app.game.hand
    assert (h.turn, h.bids) == (2, 1)
    assert "Cy:" in d.screen()
    keys(d, "o")                       # Cy orders hearts up
    h = d.app.game.hand
    assert (h.maker, h.trump, h.alone) == (2, 2, False)
    text = "\n".join(d.store.logs[d.store.current])
    assert "pass" in text and "order" in text


def test_the_dealer_picks_up_with_ok_and_passes_with_back():
    d = start("classic")
    keys(d, "o bbb")                   # hearts; Bob, Cy, Di pass
    assert cursor_row(d) == "pick up"
    assert "Ann (dealer):" in d.screen()
    keys(d, "b")                       # Ann turns it down: round 2
    assert d.app.game.hand.phase == H.P_BID2


def test_round_two_offers_next_first_and_back_still_passes():
    d = start("classic")
    keys(d, "o")                       # hearts up
    d.choose(label="all pass")         # round 1 passes
    assert d.screen()[0].startswith("Rd2")
    # diamonds (hearts' colour partner: "next") first, at the cursor
    assert d.top().cursor == 0 and cursor_row(d) == "call " + SUITS[1]
    keys(d, "o")
    h = d.app.game.hand
    assert (h.maker, h.trump) == (1, 1)


def test_a_stuck_dealer_has_no_pass_and_back_opens_the_game_menu():
    d = start("classic", {"std": True})
    keys(d, "o")
    d.choose(label="all pass")         # round 1
    keys(d, "bbb")                     # round 2: Bob, Cy, Di pass; Ann is stuck
    assert any("stuck" in r.lower() for r in d.screen())
    assert "pass (BACK)" not in [d.top().text(i) for i in range(len(d.top().items))]
    keys(d, "b")
    assert d.top().title == "Game menu"
    assert d.app.game.hand.turn == 0     # nothing was entered


def test_the_game_menu_is_a_row_on_a_bid_and_holding_back_undoes_a_pass():
    d = start("classic")
    keys(d, "o")
    d.choose(label="game menu")
    assert d.top().title == "Game menu"
    d.choose("game")
    keys(d, "b")                       # Bob passes
    assert d.app.game.hand.bids == 1
    keys(d, "B")                       # held BACK: undo
    assert d.app.game.hand.bids == 0 and d.app.game.hand.turn == 1


def test_five_handed_partner_list_puts_the_likeliest_calls_first():
    d = start("five")
    keys(d, "o")                       # hearts up
    keys(d, "o")                       # Bob orders: name a partner card
    m = d.top()
    rows = [m.text(i) for i in range(len(m.items))]
    # right and left bower, ace of trump, then the off aces, then the king of trump
    assert rows[0].startswith("J") and rows[1].startswith("J") and rows[2].startswith("A")
    assert [r[0] for r in rows[3:6]] == ["A", "A", "A"]
    assert rows[6].startswith("K")
    assert rows[-1] == "go alone"
    keys(d, "uo")                      # one UP: alone
    h = d.app.game.hand
    assert h.alone and h.maker == 1


def test_five_handed_throw_in_is_right_after_the_counts_and_the_cursor_skips_who_holds_trump():
    d = start("five")
    keys(d, "oo")                      # hearts up, Bob orders
    keys(d, "o")                       # the right bower is the partner card
    m = d.top()
    rows = [m.text(i) for i in range(len(m.items))]
    assert cursor_row(d) == "makers took 3"
    assert rows[rows.index("makers took 5") + 1] == "throw-in..."
    keys(d, "ddd o")                   # to throw-in
    assert d.top().title == "Who throws in?"
    # Bob (maker) and Ann (dealer, who picked up the upcard) hold trump:
    # the cursor is on the middle one of Cy, Di, Eve
    assert cursor_row(d) == "Di"
    keys(d, "o")                       # Di throws in: the hand is void
    g = d.app.game
    assert g.hand_no == 2 and g.scores == [0, 0, 0, 0, 0]
    assert "throwin 3" in "\n".join(d.store.logs[d.store.current])


def test_who_claims_starts_on_the_maker_and_who_held_the_card_mid_list():
    d = start("classic")
    keys(d, "oo")                      # hearts up, Bob orders up
    d.choose(label="claim")
    assert d.top().title == "Who claims?" and cursor_row(d) == "Bob"
    d = start("callpartner")
    keys(d, "oo o")                    # hearts up, Bob orders, the first partner card
    keys(d, "o")                       # makers took 3
    m = d.top()
    assert m.title.startswith("Who held")
    assert m.cursor == len(m.items) // 2


def press(d, *events):
    # Raw events as the buttons give them (BACK: BACK_DOWN on the press,
    # then BACK on release or BACK_LONG while held).
    for ev in events:
        d.now += 100
        d.app.handle(ev, d.now)
        d.app.tick(d.now)


def test_a_pass_acts_on_backs_press_edge_and_its_release_is_spent():
    d = start("classic")
    keys(d, "o")                       # hearts up: Bob's bid
    press(d, K.BACK_DOWN)
    h = d.app.game.hand
    assert (h.turn, h.bids) == (2, 1)  # passed before the key came up
    assert "pass" in d.store.logs[d.store.current][-1]
    press(d, K.BACK)                   # its release: nothing more
    h = d.app.game.hand
    assert (h.turn, h.bids) == (2, 1) and d.top().title != "Game menu"
    press(d, K.BACK_DOWN, K.BACK)      # Cy passes the same way
    assert d.app.game.hand.bids == 2


def test_holding_back_on_a_bid_still_undoes_the_input_before_it():
    d = start("classic")
    keys(d, "o b")                     # hearts up, Bob passes: Cy's bid
    press(d, K.BACK_DOWN)              # (Cy's pass, at the edge) ...
    press(d, K.BACK_LONG)              # ... held: undo, as on any game screen
    h = d.app.game.hand
    assert (h.turn, h.bids) == (1, 0)  # Bob's pass taken back, Cy's too
    assert "\n".join(d.store.logs[d.store.current]).count("undo") == 2


def test_back_elsewhere_acts_on_release_and_a_press_that_wakes_does_nothing_else():
    d = start("classic")
    press(d, K.BACK_DOWN)              # the upcard screen: nothing at the edge
    assert d.top().title != "Game menu"
    press(d, K.BACK)
    assert d.top().title == "Game menu"
    d.choose("game")
    keys(d, "o")                       # Bob's bid
    d.app.asleep = True
    press(d, K.BACK_DOWN, K.BACK)      # wakes the screen only
    assert not d.app.asleep and d.app.game.hand.bids == 0


def test_a_key_pressed_while_back_is_down_leaves_backs_release_spent():
    d = start("classic")
    keys(d, "o")                       # hearts up: Bob's bid
    press(d, K.BACK_DOWN)              # Bob passes
    press(d, K.OK)                     # Cy orders up, BACK still held
    assert d.app.game.hand.maker == 2
    press(d, K.BACK)                   # BACK comes up: nothing more
    assert d.top().title != "Game menu" and d.app.game.hand.maker == 2
