# A game: hands in sequence, dealer rotation, running scores, the end.
#
# A game is its ordered list of events (actions in text notation); the state
# is a pure function of them, so undo is "replay all but the last"::
#
#     g = Game(Rules("classic"), ["Ann", "Bob", "Cy", "Di"], dealer=0)
#     for e in ["up H", "pass", "order", "tricks 3"]:
#         g.apply(e)
#     g.scores        # [0, 1, 0, 1]: seat 1 ordered, its side made it
#     g.undo()        # back to before "tricks 3"
#
# Scores are kept per seat; in partnership variants both partners always hold
# their side's score.

from array import array

from euchre import actions as A
from euchre.cards import error_text
from euchre.hand import Hand, IllegalAction, SCORED, REDEAL, TERMINAL, P_DONE, apply_text, _HOST


class Game:
    """A game: hands, dealers, scores."""

    accepted = False   # a club round's result accepted (euchre.clubround)

    # Option raise_target: the points to win now, and at ``history_from``
    # (0, the class's, without the option: the rules' winning_score; a
    # field only in a game that has it).
    target = history_target = 0

    def __init__(self, rules, players=None, dealer=0, cards=False, start=None):
        """A new game.

        :param rules: a ``Rules``.
        :param players: names by seat (default: seat letters A, B, ...).
        :param dealer: seat of the first dealer.
        :param cards: card mode (deals real cards) instead of table mode.
        :param start: the scores per seat the game starts at (None: 0 each),
            for a game played on from a score (an imported game that began
            elsewhere); partners start alike, every score below the target.
        :raises ValueError: not a Rules, no such dealer, not a name per seat,
            or not such a start.
        """
        self.rules = rules
        self.first_dealer = dealer
        self.cards = cards
        self.start = None
        self._reset()  # (the Hand checks the rules and the dealer)
        n = rules.num_players
        if players is None:
            players = "ABCDEF"[:n]  # seat letters
        names = list(players) if isinstance(players, (list, tuple, str)) else []
        for p in names:
            if type(p) is not str:
                names = []
        if len(names) != n:
            raise ValueError(error_text("players", rules.title, n, players))
        self.players = names
        if start is not None:
            ok = isinstance(start, (list, tuple)) and len(start) == n
            for i in range(n if ok else 0):
                s = start[i]
                ok = ok and type(s) is int and -100 < s < rules.winning_score and (
                    not rules.teams or s == start[(i + 2) % n])
            if not ok:
                raise ValueError(error_text("start", n, rules.winning_score, start))
            if any(start):
                self.start = list(start)
                self.scores = list(start)
                self.history_base = list(start)
                self._bar(self.hand)

    def _reset(self):
        self.dealer = self.first_dealer
        self.hand = Hand(self.rules, self.dealer, self.cards)  # (checks the rules and the dealer)
        self.scores = list(self.start) if self.start else [0] * self.rules.num_players
        if self.rules.raise_target:
            self.target = self.history_target = self.rules.winning_score
        self._bar(self.hand)
        self.hand_no = 1        # number of the hand being played (1-based)
        self.result = None      # (winners, kind) once over
        self.last_hand = None   # the previous finished Hand
        self._ids = array("H")
        self._deals = []        # dealt cards of card-mode hands, in order
        self._base = 0          # events before _ids[0] (after restore)
        self._restored = None   # the checkpoint restored from, if any
        self._last_before = None  # last_hand before the final hand (game over)
        # Every finished hand, for amending one (euchre.amend): result,
        # dealer and points per seat, n + 2 numbers a hand, from hand
        # ``history_from`` (a restore starts it again) whose starting
        # scores and club-round count are ``history_base``/``_count``.
        self.history = array("b")
        self.history_from = 1
        self.history_base = list(self.scores)
        self.history_count = (0, 0)
        self.amending = None    # the Hand entered again (an amendment under way)
        self.amend_no = 0       # ... its number
        self.amend_ck = None    # ... the checkpoint before it
        self.ck_fixed = None    # the checkpoint of a game an amendment ended
        self.last_amend = None  # (hand, old points, new points, old scores,
        #                          new scores, old result, new result)
        self.amended_hand = None  # ... and the Hand it entered
        self.last_played = None   # the last hand played, while an earlier end holds last_hand
        if self.rules.round_hands:
            # a club round (euchre.clubround): hands that passed the deal
            # on, the side that scored last, the result accepted
            self.counted = self.last_side = 0
            self.accepted = False

    # ----- the state API (delegates to the current hand) -----------------

    def current_player(self):
        """Seat to act, or CHANCE / TABLE / TERMINAL (see euchre.hand)."""
        if self.amending is not None:
            return self.amending.current_player()
        return TERMINAL if self.result else self.hand.current_player()

    def legal_actions(self):
        """Legal events now, in text notation (while an amendment is under
        way: its inputs). Corrections are not play: ``amendable()`` lists
        the hands ``amend N`` takes now, as ``undo()`` is not listed.
        """
        if self.amending is not None:
            from euchre.amend import legal_ids
            return list(map(A.action_name, legal_ids(self)))
        if self.result:
            out = ["accept"] if self.rules.round_hands and not self.accepted else []
        else:
            out = self.hand.legal_actions()
            if self.rules.round_hands:
                # (between a club round's hands: time called, the round ends)
                from euchre.clubround import may_end
                if may_end(self):
                    out.append("accept")
        return out

    def amendable(self):
        """The numbers of the finished hands ``apply("amend N")`` takes now
        (between hands or at the end; see euchre.amend).
        """
        if not self.history or (self.hand.events and not self.result):
            return []
        from euchre.amend import amendable
        return amendable(self)

    def is_terminal(self):
        """True once the game is over (and no amendment is under way)."""
        return self.result is not None and self.amending is None

    def returns(self):
        """Scores per seat."""
        return list(self.scores)

    def apply(self, text):
        """Apply one event in text notation.

        :raises IllegalAction: naming the rule; nothing changes.
        """
        if self.amending is None and text != "accept" and (type(text) is not str or not text.startswith("amend ")):
            self._check_open()
        apply_text(self, text)

    apply_action = apply

    def apply_id(self, a):
        """Apply an action id (fast path for simulation)."""
        if self.amending is not None or type(a) is int and A.kind_of(a) == A.AMEND:
            from euchre import amend   # correcting a finished hand (its inputs first)
            if self.amending is None:
                return amend.begin(self, a)
            return amend.step(self, a, game_result)
        if a == A.ACCEPT and type(a) is int:
            from euchre.clubround import accept   # a club round's result accepted
            return accept(self)
        self._check_open()
        self.hand.apply_id(a)
        self._ids.append(a)
        if self.hand.phase == P_DONE:
            self._finish_hand(self.hand)

    def deal(self, cards):
        """Card mode: deal ``cards`` (see ``Hand.deal``)."""
        self._check_open()
        if self.amending is not None:
            raise IllegalAction(error_text("amend_quick"))   # (the amended hand's inputs first)
        self.hand.deal(cards)
        self._deals.append(self.hand.play.dealt)
        self._ids.append(A.DEAL)

    def _check_open(self):
        if self.result:
            raise IllegalAction(error_text("over"))

    def _finish_hand(self, h):
        before = self.scores[:]
        self.history.append(h.result)
        self.history.append(h.dealer)
        for p in h.points:
            self.history.append(p)
        if h.result == SCORED:
            for p in range(len(h.points)):
                self.scores[p] += h.points[p]
            if self.rules.raise_target:
                from euchre.later import raised_target
                self.target = raised_target(self.scores, self.target)
            self.result = game_result(self.rules, self.scores, before, self.target)
        if self.rules.round_hands:
            from euchre.clubround import hand_done
            hand_done(self, h.result != REDEAL, h.result == SCORED and h.points)
        if self.result:
            self._before = before
            self._last_before = self.last_hand
        self.last_hand = h
        if h.result != REDEAL:
            self.dealer = (self.dealer + 1) % self.rules.num_players
        self.hand_no += 1
        if self.result is None:
            self.hand = self._bar(Hand(self.rules, self.dealer, self.cards))

    # ----- events, undo, replay -------------------------------------------

    def events(self):
        """The events so far, in text notation."""
        out = []
        d = 0
        for a in self._ids:
            if a == A.DEAL:
                from euchre.cardmode import deal_action
                out.append(deal_action(self.rules, self._deals[d]))
                d += 1
            else:
                out.append(A.action_name(a))
        return out

    def event_count(self):
        """Number of events so far (including those before a ``restore``)."""
        return self._base + len(self._ids)

    def undo(self):
        """Take back the last event (replays the rest).

        :raises IllegalAction: at the start of the game.
        """
        if not self._ids:
            if self._base:
                raise IllegalAction(error_text("undo_restored"))
            raise IllegalAction(error_text("undo_start"))
        ids = list(self._ids)[:-1]
        if self._restored:
            for a in ids:
                if A.kind_of(a) == A.AMEND:
                    # (amending needs the hands before the checkpoint)
                    raise IllegalAction(error_text("undo_restored"))
        deals = self._deals
        if self._ids[-1] == A.DEAL:
            deals = deals[:-1]
        if self._restored:
            self.restore(self._restored)
        else:
            self._reset()
        d = 0
        for a in ids:
            if a == A.DEAL:
                self.deal(deals[d])
                d += 1
            else:
                self.apply_id(a)

    def checkpoint(self):
        """The state at the start of the current hand, as a short list of ints
        ``[events, hand_no, dealer, score, ...]``: ``events`` is how many
        events came before the hand. ``restore`` rebuilds the game from it,
        so resuming never replays earlier hands.
        When a hand came before, its outcome follows as values (``result``,
        ``outcome`` code, ``renege`` seat or -1, ``points``...) so a resumed
        device can still show it. A club round ends with its count of hands
        and ``last_side``.
        """
        ck = self.amend_ck if self.amending is not None else self.ck_fixed
        if ck:
            # (an amendment under way, or a game it ended: from before it)
            return list(ck)
        h = self.hand
        if self.result and h.events:  # over: the start of the last hand
            ck = [self._base + len(self._ids) - h.events - self.accepted, self.hand_no - 1,
                  h.dealer] + self._before
            last = self._last_before
        else:
            ck = [self._base + len(self._ids) - h.events - self.accepted,
                  self.hand_no, self.dealer] + self.scores
            last = self.last_hand
        if last is not None:
            ck += [last.result, last.outcome, last.renege] + list(last.points or [0] * len(self.scores))
        if self.rules.round_hands:
            from euchre.clubround import ck_tail
            ck += ck_tail(self)
        if self.rules.raise_target:
            # (the target as raised so far; a hand that raises it ends no game)
            ck.append(self.target)
        return ck

    def restore(self, ck):
        """Continue from a ``checkpoint()`` (then apply the hand's events).
        Earlier events are not loaded: ``undo`` past this point raises, and
        the caller replays the whole log instead.

        :raises ValueError: a checkpoint that does not fit this game (a
            list of ints and the last hand's outcome code, the numbers in
            range), or one an older bower wrote (the last hand's words in
            place of its outcome code and renege seat): the caller then
            replays the whole log.
        """
        n = self.rules.num_players
        target = None
        if self.rules.raise_target:
            # (its last value: the target so far, 10s over the game's)
            target = ck[-1] if isinstance(ck, list) and ck else None
            ws = self.rules.winning_score
            if type(target) is not int or target < ws or (target - ws) % 10:
                raise ValueError(error_text("checkpoint", ck))
            ck = ck[:-1]
        k = len(ck) if isinstance(ck, list) else 0
        count = None
        if self.rules.round_hands:
            from euchre.clubround import ck_split
            ck, count = ck_split(ck)
            k = len(ck) if count else 0
        ok = k == 3 + n or k == 6 + 2 * n
        for i in range(k):
            ok = ok and type(ck[i]) is (str if i == 4 + n else int)
        if not (ok and ck[0] >= 0 and ck[1] >= 1 and 0 <= ck[2] < n
                and (k == 3 + n or (0 <= ck[3 + n] <= REDEAL and -1 <= ck[5 + n] < n
                                    and (ck[5 + n] >= 0) == (ck[4 + n] == "renege")))):
            raise ValueError(error_text("checkpoint", ck))
        self._reset()
        if len(ck) > 3 + n:
            self.last_hand = HandSummary(ck[3 + n], ck[4 + n], ck[5 + n], ck[6 + n:])
        self._base = ck[0]
        self.hand_no = ck[1]
        self.dealer = ck[2]
        self.scores = list(ck[3:3 + n])
        self.history_from = self.hand_no
        self.history_base = list(self.scores)
        if count:
            self.counted, self.last_side = count
            self.history_count = tuple(count)
            ck = ck + count
        if target:
            self.target = self.history_target = target
            ck = ck + [target]
        self._restored = ck
        self.hand = self._bar(Hand(self.rules, self.dealer, self.cards))

    def _bar(self, h):
        # Option no_late_loners: the seats of the hand ``h`` about to be
        # played that may not go alone, from the scores. Returns ``h``.
        if self.rules.no_late_loners:
            from euchre.later import barred_seats
            h.barred = barred_seats(self.rules, self.scores, self.target)
        return h

    def header(self):
        """The game's header (first line of its log)."""
        h = self.rules.to_dict()
        h["players"] = list(self.players)
        h["dealer"] = self.first_dealer
        h["mode"] = "cards" if self.cards else "table"
        if self.start:
            h["start"] = list(self.start)
        return h

    def standings(self):
        """``[(label, score), ...]``: per side in partnerships ("A & C",
        Six-Handed "A & C & E"), else per seat.
        """
        if self.rules.teams:
            out = []
            for side in range(2):
                names = []
                for p in range(side, len(self.players), 2):
                    names.append(self.players[p])
                out.append((" & ".join(names), self.scores[side]))
            return out
        return list(zip(self.players, self.scores))

    def winner_names(self):
        """Names of the winners (empty while the game goes on)."""
        out = []
        for p in self.result[0] if self.result else ():
            out.append(self.players[p])
        return out

    if _HOST:
        # (not on the device: firmware/DEVICE.md, 1)
        def __repr__(self):
            return "<Game %s hand %d scores %r>" % (self.rules.name, self.hand_no, self.scores)


class HandSummary:
    """A restored game's last hand: how it ended, as its Hand tells it."""

    # (``result``, the ``outcome`` code, ``renege``: the seat or -1, and
    # ``points``: the fields of a finished Hand the device shows.)

    def __init__(self, result, outcome, renege, points):
        self.result = result
        self.outcome = outcome
        self.renege = renege
        self.points = list(points)


def game_from_header(header):
    """A new game from a log header (see ``Game.header``).

    :raises ValueError: if the header is not a valid game header.
    """
    from euchre.rules import rules_from_dict
    try:
        rules = rules_from_dict(header)
        return Game(rules, header["players"], header["dealer"], header.get("mode") == "cards",
                    header.get("start"))
    except (KeyError, TypeError) as e:
        raise ValueError(error_text("header", e))


# ----- game end --------------------------------------------------------------

WIN = "win"
SHARED = "shared"
DRAW = "draw"


def game_result(rules, scores, before, target=0):
    """``None`` while the game goes on, else ``(winners, kind)``: the seats
    that won (both partners in a partnership) and ``WIN``, ``SHARED`` or
    ``DRAW``. ``before`` holds the scores at the start of the last hand;
    ``target`` the points to win now (0: the rules' ``winning_score``).
    """
    target = target or rules.winning_score
    end = rules.end
    best = max(scores)
    if best < target:
        return None
    leaders = _seats(scores, best)
    if end == "first_to":
        # Partnerships: all partners hold the side's score, so the sides
        # are level when every seat leads. (Two-Handed: one seat a side.)
        return leaders, (WIN if len(leaders) * 2 == len(scores) else DRAW)
    if end == "lead_by_one":
        # 000: ten or more and at least one point ahead of everyone.
        return (leaders, WIN) if len(leaders) == 1 else None
    if end == "highest":
        # 001 as RULES.md decides: the highest wins, ties share the win.
        return leaders, (WIN if len(leaders) == 1 else SHARED)
    # 000, alternate ending: among those who reached the target in this hand
    # the lowest score at its start wins; still tied: a draw among all of
    # them.
    reached = _seats(scores, target)
    low = before[reached[0]]
    for p in reached:
        if before[p] < low:
            low = before[p]
    first = ()
    for p in reached:
        if before[p] == low:
            first += (p,)
    if len(first) == 1:
        return first, WIN
    return reached, DRAW


def _seats(scores, least):
    # The seats whose score is ``least`` or more, as a tuple.
    out = []
    for p in range(len(scores)):
        if scores[p] >= least:
            out.append(p)
    return tuple(out)
