# The device's UI core: a pure state machine. Input events and the time go
# in (``handle``, ``tick``), a 128x64 frame comes out (``render`` on any
# object with the framebuf API). Nothing here touches hardware; ``board``
# feeds it and ``display`` sends what changed.
#
# Screens form a stack. The game screens are not stored state: they are
# rebuilt from the game after every input (``show_game``), so resuming a game
# from flash brings back the same screen, and a menu can only ever offer what
# ``Game.legal_actions()`` allows.

from bower import gfx, unload
from bower.keys import BACK, BACK_LONG, OK_LONG, BACK_DOWN

TOAST_MS = 1800


class App:
    # The whole device UI. ``store``: bower.store.Store; ``info``: version,
    # device id, board configuration; ``rand_below(n)``: randomness for the
    # first-dealer draw (tests pass a fixed one; None: the hardware RNG).
    # ``game`` is None outside a game; what needs one asserts it (for the
    # type checker: mpy-cross -O3, which bower deploy uses, drops asserts).

    def __init__(self, store, info=None, rand_below=None, now_ms=0):
        self.store = store
        self.info = info or {}
        self.rand_below = rand_below
        self.game = None
        self.stack = []
        self.dirty = True
        self.asleep = False
        self.contrast = 255
        self.toast = ""
        self.toast_until = 0
        self.last_input = now_ms
        self.now = now_ms
        self.by_trick = False     # trick-by-trick entry chosen for this hand
        self.acked = 0            # hand number whose result was acknowledged
        self.pressed = 0          # raw button mask (button test)
        self.setup = None         # settings of the game being set up
        self._later = []          # flash writes of inputs already shown
        self._trim = False        # the store's extras to unload at the next tick
        self._edge = 0            # a BACK press spent at its edge: 1 waking, the
                                  # event count after its pass, -1 a pass refused
        self._apply_brightness()
        # The game in play, else the one whose game-over screen was up.
        r = store.resume() or store.resume(1)
        if r:
            self.game = r[0]
            self.acked = r[1].get("ack", 0)   # (0: the hand's result is shown once more)
            self.show_game()
        else:
            self.home()
        for w in store.warnings:
            self.notify(w)
        self.warned = len(store.warnings)  # warnings shown; the link may add more
        if "storage full" in store.warnings:
            from bower.screens import storage
            self.push(storage(self, ""))

    # ----- input and time ------------------------------------------------

    def handle(self, ev, now_ms):
        self.now = now_ms
        self.last_input = now_ms
        # BACK's press edge (BACK_DOWN) passes on a bid at once; that press's
        # release is then spent (other keys pressed meanwhile act as ever),
        # and holding it on (undo) takes back the pass and the input before
        # it, as a hold on any game screen would.
        if ev == BACK or ev == BACK_LONG or ev == BACK_DOWN:
            edge = self._edge
            self._edge = 0
            if edge and ev != BACK_DOWN:
                if ev == BACK_LONG and edge != 1:
                    assert self.game is not None   # (an edge: a game screen's)
                    if self.game.event_count() == edge:
                        self.undo()       # the pass (unless the flash refused it)
                    self.undo()
                return
        if self.asleep:
            # The first press only wakes the display.
            self.asleep = False
            self._apply_brightness()
            self.dirty = True
            self._edge = 1 if ev == BACK_DOWN else 0
            return
        if self.contrast != self._brightness():
            self._apply_brightness()
        top = self.stack[-1]
        if ev == BACK_DOWN:
            # Elsewhere BACK acts on release (a hold is undo, not back).
            if top.pass_id >= 0:
                assert self.game is not None   # (a bid's menu)
                n = self.game.event_count()
                top.handle(self, BACK)
                m = self.game.event_count()
                self._edge = m if m > n else -1
        elif ev == BACK_LONG and top.game_screen:
            self.undo()
        elif ev == OK_LONG and top.game_screen:
            self.game_menu()
        else:
            top.handle(self, ev)

    def tick(self, now_ms):
        # (work that can wait runs here, after the frame: firmware/DEVICE.md, 6)
        self.now = now_ms
        if self._later:
            self.commit()
        if self._trim:
            # After the writes that waited for the frame: a game's start
            # needs bower.past to record it, and would load it again.
            self._trim = False
            self.store.trim()
        w = self.store.warnings
        if len(w) > self.warned:
            self.warned = len(w)
            if self.stack[-1].home:
                self.home()   # (the link may have changed its rows: a club round)
            self.notify(w[-1])
        if self.toast and now_ms >= self.toast_until:
            self.toast = ""
            self.dirty = True
        s = self.store.settings
        idle = now_ms - self.last_input
        if s["off_s"] and idle >= s["off_s"] * 1000:
            if not self.asleep:
                self.asleep = True
                self.dirty = True
        elif s["dim_s"] and idle >= s["dim_s"] * 1000:
            dim = max(1, self._brightness() // 8)
            if self.contrast != dim:
                self.contrast = dim

    def later(self, fn):
        # Run fn() once the screen has been drawn (the board loop's tick
        # right after the frame is sent), before the next input is handled.
        self._later.append(fn)

    def commit(self):
        # Do the work that waited for the frame: the flash writes of the
        # inputs on screen. A power cut before this loses at most that input.
        # False if one was refused (flash full): the rest is dropped.
        todo = self._later
        while todo:
            if todo.pop(0)() is False:
                del todo[:]
                return False
        return True

    def warm(self):
        # While idle: load what the next press may need, one module per call
        # (the board loop calls again while it stays idle, reading the
        # buttons in between); False once nothing is left. Outside a game:
        # the menus (not loaded to boot) and the game screens (the menus are
        # dropped during a hand, see show_game), the store's past games after a
        # game; then the store's flash work kept off the presses (Store.tidy:
        # older games to past/). In a hand: the new hand's checkpoint.
        import sys
        if self.game is None or self.game.result:
            for m in ("bower.screens", "bower.newgame", "bower.play", "euchre.game", "bower.past"):
                if m in sys.modules:
                    continue
                if m == "euchre.game" and self.setup is None:
                    continue   # (only while a game is set up: its OK would import it, some 25 ms on a Pico)
                if m == "bower.past" and self.game is None:
                    continue   # (on the game-over screen: Home and a new game both need it, some 35 ms)
                __import__(m)
                return True
            # What the screen on top can prepare for its next OK (the
            # variant menu: the rules of the variant under the cursor).
            if self.stack[-1].warm():
                return True
            if self.setup is not None and self.store.prepare():
                return True    # (littlefs's first allocation: not on the OK that starts the game)
            if self.game is not None:
                return False   # (game over: the moves to past/ wait for Home; their flash commits
                               # would leave a compaction of the games directory to the next press)
            return self.store.tidy()   # the store's deferred flash work, a step per call
        return self.store.idle()   # in a hand: the new hand's checkpoint, off the press that ended the last

    def buttons_seen(self, mask):
        # Raw pressed-buttons mask from the board loop (button test screen).
        if mask != self.pressed:
            self.pressed = mask
            if self.stack[-1].live:
                self.dirty = True

    def render(self, fb):
        fb.fill(0)
        self.stack[-1].draw(self, fb)
        if self.toast:
            # Over the bottom rows, as many as the whole note needs (words
            # wrapped, never cut), under a line.
            lines = gfx.wrap(self.toast)
            y = 64 - 8 * len(lines)
            fb.fill_rect(0, y, 128, 64 - y, 0)
            fb.hline(0, y, 128, 1)
            for line in lines:
                gfx.text(fb, line, 0, y + 1)
                y += 8
        self.dirty = False

    def notify(self, text):
        # A one-line note over the bottom row for a moment.
        self.toast = text
        self.toast_until = self.now + TOAST_MS
        self.dirty = True

    def _brightness(self):
        return self.store.settings["brightness"]

    def _apply_brightness(self):
        self.contrast = self._brightness()

    # ----- the screen stack ----------------------------------------------

    def push(self, screen):
        self.stack.append(screen)
        self.dirty = True

    def back(self):
        if len(self.stack) > 1:
            self.stack.pop()
            self.dirty = True

    def replace(self, screen):
        self.stack[-1] = screen
        self.dirty = True

    def home(self):
        if self.game is not None and self.game.result:
            self.store.close()  # the game-over screen is left
        from bower.home import home
        self.stack = [home(self)]
        self.dirty = True

    def game_menu(self):
        from bower.screens import game_menu
        self.push(game_menu(self))

    def scores(self):
        # The standings over the game menu (OK or BACK returns).
        from bower.scores import Scores
        self.push(Scores())

    def after_game(self):
        # The game is over and its screen was left: new game or home.
        from bower.newgame import after_game
        self.push(after_game(self))

    # ----- the game --------------------------------------------------------

    def club(self, end=False):
        # A club round (bower.club): the pushed round's menu (from home), or
        # (``end``: a minutes round's time is up) its result, to end it.
        from bower import club
        self.setup = None
        self.push(club.RoundOver(True) if end else club.round_menu(self))

    def show_game(self):
        # Rebuild the game screen from the game state (after any input).
        g = self.game
        assert g is not None
        if g.result and g.rules.round_hands and g.amending is None:
            from bower.club import RoundOver   # a club round's end
            self.stack = [RoundOver()]
        else:
            from euchre.phases import P_UP, P_QPARTNER, P_QUICK
            p = g.hand.phase
            if g.amending is not None or not g.result and (
                    p == P_QPARTNER or p == P_QUICK or p == P_UP and self.store.settings.get("quick")):
                # Quick score: its screens (bower.quick) hold the hand, not
                # full entry's (bower.play, loaded again for a game's end).
                from bower.quick import screen
                unload("bower.play")
            else:
                from bower.play import game_screen as screen
                unload("bower.quick")
            self.stack = [screen(self)]
        self.dirty = True
        # The menus outside the hand, the store's and the link's rarely used
        # parts are not needed while it is played: give their heap back
        # (they load again from flash when used).
        unload("bower.screens")
        unload("bower.newgame")
        unload("bower.home")
        self._trim = True   # the store's extras: after the flash writes (tick)

    def act_id(self, a, times=1):
        # Apply one input, an action id from the engine's legal_ids(), to
        # the game and show the next screen; after the frame (``later``) its
        # log line's text is made and written to flash. ``times``: again
        # while it stays legal in this phase (everybody passes), all of them
        # written in one append, as one input.
        if not self.commit():
            return
        from euchre.actions import IllegalAction, action_name  # loaded with the game
        g = self.game
        assert g is not None
        hand_no = g.hand_no
        phase = g.hand.phase
        amending = g.amending
        try:
            g.apply_id(a)
        except IllegalAction as e:
            self.notify(str(e))
            return
        done = 1
        while done < times and g.hand_no == hand_no and g.hand.phase == phase and a in g.hand.legal_ids():
            g.apply_id(a)
            done += 1
        self.later(lambda: self._record(g, action_name(a), 0, done))
        self._moved(g, hand_no)
        if amending is not None and g.amending is None:
            from bower.amend import changed   # a hand amended: what changed
            self.push(changed(g))

    def _moved(self, g, hand_no):
        # After an input: a new hand is entered as a whole again; its screen.
        if g.hand_no != hand_no:
            self.by_trick = False
        self.show_game()

    def undo(self):
        # Take back the last input (long BACK), down to the game's start.
        if not self.commit():
            return
        from euchre.actions import IllegalAction
        k = self.acked
        g = self.game
        assert g is not None
        try:
            g.undo()
        except IllegalAction:
            if not g.event_count():
                self.notify("nothing to undo")
                return
            # Resumed from a checkpoint: the earlier hands are on flash.
            g = self.game = self.store.load_full()
            g.undo()
        self.later(lambda: self._record(g, "undo", k))
        self.acked = 0
        self.by_trick = False
        self.show_game()
        self.notify("undone")

    def _record(self, g, text, k=0, times=1):
        try:
            self.store.record(g, text, times)
        except OSError as e:
            if e.args[0] != 28:  # ENOSPC; anything else is a real failure
                raise
            # Not on flash: taken back here too (k: acked before an undo).
            from bower.screens import refused
            return refused(self, g, text, k, times)

    def ack_hand(self):
        # OK on a hand's result: the next hand; after the frame, the
        # acknowledgement goes to flash so a reboot does not show it again.
        assert self.game is not None
        n = self.acked = self.game.hand_no
        self.show_game()
        self.later(lambda: self._ack(n))

    def _ack(self, n):
        try:
            self.store.ack(n)
        except OSError:
            pass  # a reboot shows that result once more
