"""``bower sim``: the device, simulated with the very same firmware.

The firmware's UI core (``bower.ui``), its flash store and its display layer
(``bower.display`` over the vendored micropython-lib ``ssd1306`` driver) run
unchanged on CPython. The driver talks to a fake I2C bus with an SSD1306 model
behind it, and the picture shown is the model's display RAM: what the chip
would show, decoded from the bytes the driver sent.

Keys: up/down arrows (or k/j), Enter or space = OK, Backspace or Esc = BACK,
``l`` = hold OK (on a game screen, a bid's too, it opens the game menu:
``bower.ui.App.handle``), ``z`` = hold BACK (undo), ``q`` = quit. Scripted
runs take the letters of ``bower.keyscript.parse_keys`` (``u d o b O B``).

The picture fits the terminal: 128x32 half blocks when it has 130x36 cells,
else 64x16 braille characters (every pixel still a dot) down to 66x20; with
four lines more (80x24 has them) the screen's words follow the braille, as
the firmware drew them (``bower_host.screentext``). Below 66x20 a line says
what size is needed.

``--serve`` also serves the device's USB link, the firmware's own
``bower.link`` over the sim's store, on a pseudo-terminal
(``bower_host.simlink``): ``bower sync``, ``roster push`` and ``clock`` with
``--port`` then talk to the simulator as to a Pico. Each simulated flash is
its own device (its id is kept in the flash directory), so a ``--fresh``
flash is a new device to the library too; ``--fresh`` refuses to erase games
no library has yet (it asks, on a terminal). One simulator runs on a flash
at a time (an OS lock on ``<flash>.lock`` beside it, by its real path): a
second one on it, ``--fresh`` too, is refused, naming the first.

The device itself (its app, store, driver and display model) is
:mod:`bower_host.simulator`; this module is the terminal and the command.
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import signal
import sys
import textwrap
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from bower_host import simhw

simhw.install()

from bower import keys as K  # noqa: E402
from bower.keyscript import parse_keys  # noqa: E402

from bower_host import outputs, screen, screentext  # noqa: E402
from bower_host.simulator import (DEVICE_ID_FILE, MAX_PRESSES, Device, default_flash_dir, run_script,  # noqa: E402
                                  unsynced_games)

HELP = "arrows/jk  Enter OK  Bksp BACK  l hold OK: game menu  z undo  q quit"
FULL = (130, 36)      # cells for 128x32 half blocks in a border, the help and the link line
COMPACT = (66, 20)    # the same with 64x16 braille characters: fits 80x24
WORDS = 4             # lines of the screen's words under the braille, where they fit (80x24 has them)


def terminal_size(out) -> tuple[int, int] | None:
    """``(columns, lines)`` of the terminal ``out`` writes to, None if it is not one."""
    try:
        if out.isatty():
            size = os.get_terminal_size(out.fileno())
            if size.columns and size.lines:      # 0x0: a terminal that does not say
                return size.columns, size.lines
    except (AttributeError, OSError, ValueError):
        pass
    return None


def picture(dev: Device, size: tuple[int, int] | None = None, status: str = "") -> list[str]:
    """The lines that show the device in a terminal of ``size`` (None: any size).

    Half blocks at true resolution when the terminal has ``FULL`` cells,
    else braille (every pixel a dot) when it has ``COMPACT``, else a note
    saying what size is needed. ``status`` is a last line (the USB link).
    """
    frame = dev.gddram() if dev.lit() else bytes(1024)
    cols, rows = size or (10 ** 6, 10 ** 6)
    extra = 1 + bool(status)
    if cols >= FULL[0] and rows >= FULL[1] - 2 + extra:
        art = screen.halfblocks(frame)
    elif cols >= COMPACT[0] and rows >= COMPACT[1] - 2 + extra:
        art = screen.braille(frame)
    else:
        note = (f"The simulator needs a terminal of at least {COMPACT[0]}x{COMPACT[1]} characters "
                f"(this one is {cols}x{rows}); {FULL[0]}x{FULL[1]} shows it larger. "
                "Enlarge the window: keys still work, q quits.")
        lines = textwrap.wrap(note, max(cols, 20))
        if status:
            lines.append(status)
        return [ln[:cols] for ln in lines[:max(rows, 1)]]
    art_lines = art.splitlines()
    border = "+" + "-" * len(art_lines[0]) + "+"
    lines = [border] + ["|" + ln + "|" for ln in art_lines] + [border]
    if len(art_lines) < 32 and rows >= len(lines) + WORDS + extra:
        # Braille is hard to read: the screen's words too, as the firmware drew them.
        lines += screentext.panel(screentext.rows(dev.app), WORDS) if dev.lit() else [""] * WORDS
    lines.append(HELP)
    if status:
        lines.append(status)
    return [ln[:cols] for ln in lines]


def draw_terminal(dev: Device, out=None, clear: bool = True, size=None, status: str = "") -> None:
    """Draw the device (``picture``) for the terminal ``out`` is (its size measured now unless given)."""
    out = out or sys.stdout   # looked up now: stdout may have been replaced
    lines = picture(dev, size or terminal_size(out), status)
    if clear:
        # No newline after the last line: a full terminal would scroll the top off.
        out.write("\x1b[H\x1b[2J" + "\n".join(lines))
    else:
        out.write("\n".join(lines) + "\n")
    out.flush()


def _scale(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= v <= 64:
        raise argparse.ArgumentTypeError(f"{v} is out of range: 1 to 64 screenshot pixels per OLED pixel")
    return v


_ESC_KEYS = {"[A": K.UP, "[B": K.DOWN, "OA": K.UP, "OB": K.DOWN}
_KEYS = {"k": K.UP, "j": K.DOWN, "\r": K.OK, "\n": K.OK, " ": K.OK, "\x7f": K.BACK, "\x08": K.BACK,
         "l": K.OK_LONG, "z": K.BACK_LONG}


def _status(served) -> str:
    return f"USB link: bower sync --port {served.name}" if served is not None else ""


def interactive(dev: Device, served=None) -> None:
    """Play with the keyboard until ``q``; ``served`` (a ``SimLink``) is answered meanwhile."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    watch = [fd] if served is None else [fd, served]
    status = _status(served)
    try:
        tty.setcbreak(fd)
        size = terminal_size(sys.stdout)
        draw_terminal(dev, status=status)
        while True:
            ready, _, _ = select.select(watch, [], [], 0.1)
            if served is not None and served in ready:
                served.serve()
            if fd not in ready:
                dirty_before = dev.app.dirty
                dev.tick()
                now_size = terminal_size(sys.stdout)
                if dirty_before or dev.bytes_sent[-1] or now_size != size:
                    size = now_size
                    draw_terminal(dev, status=status)
                continue
            ch = os.read(fd, 1).decode("latin-1")
            if ch == "q":
                break
            ev = None
            if ch == "\x1b":
                more, _, _ = select.select([fd], [], [], 0.02)
                if more:
                    ev = _ESC_KEYS.get(os.read(fd, 2).decode("latin-1"))
                else:
                    ev = K.BACK
            else:
                ev = _KEYS.get(ch)
            if ev is not None:
                dev.press(ev)
                draw_terminal(dev, status=status)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\n")


def _stop_on_sigterm():
    # ``kill`` ends a served simulator like Ctrl-C: cleanly, its symlink removed.
    def stop(signum, frame):
        raise KeyboardInterrupt
    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:   # not the main thread (a test calling main())
        return None


def serve_until_stopped(dev: Device, served) -> None:
    """The device loop without a keyboard: answer the link until Ctrl-C or SIGTERM."""
    print(f"serving the device link on {served.port}"
          + (f" (linked at {served.symlink})" if served.symlink else "")
          + f": bower sync --port {served.name}  (also roster push, clock); Ctrl-C stops", flush=True)
    try:
        while True:
            ready, _, _ = select.select([served], [], [], 0.1)
            if ready:
                served.serve()
            dev.tick()
    except KeyboardInterrupt:
        pass


def _wipe(flash: str, ask: bool) -> None:
    # --fresh: erase the simulated flash, but never a game no library has
    # without the user's yes.
    if not os.path.isdir(flash):
        return
    from bower_host.errors import CommandError

    if not _is_flash(flash):
        raise CommandError(f"--fresh erases only a simulated flash, and {flash} is not one (it holds no "
                           f"{DEVICE_ID_FILE}): nothing erased; give --flash the simulator's directory")
    try:
        left = unsynced_games(flash)
    except (OSError, ValueError) as e:
        raise CommandError(f"cannot read the simulated flash at {flash}: {e}") from e
    if left:
        what = (f"the simulated flash at {flash} holds {len(left)} game(s) not synced to a library yet "
                f"({', '.join(left[:5])}{', ...' if len(left) > 5 else ''})")
        if not ask:
            raise CommandError(f"--fresh would erase them: {what}. Sync them first (bower sim --serve, then "
                               "bower sync --port ...), or use another directory with --flash DIR")
        answer = input(f"{what[0].upper()}{what[1:]}. Erase them? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            raise CommandError("nothing erased")
    shutil.rmtree(flash)


def _is_flash(folder: str) -> bool:
    # A simulator's flash: empty, or with its id file (or an older one's games and settings).
    try:
        names = set(os.listdir(folder))
    except OSError:
        return False
    if not names or os.path.isfile(os.path.join(folder, DEVICE_ID_FILE)):
        return True
    return os.path.isdir(os.path.join(folder, "games")) and os.path.isfile(os.path.join(folder, "settings"))


def do_sim(args: argparse.Namespace) -> int:
    from bower_host.errors import CommandError

    flash = args.flash or default_flash_dir()
    # Never a library's files; the screenshot never in the flash (bower_host.outputs).
    outputs.check_output_dir(flash, library=None, option="--flash")
    if args.screenshot is not None:
        outputs.check_output(args.screenshot, library=None, protect=[flash], option="--screenshot")
    if args.keys is not None:
        try:
            parse_keys(args.keys, MAX_PRESSES)   # refused before the device starts
        except ValueError as e:
            raise CommandError(f"--keys: {e}") from e
    with _only_one(flash):
        return _sim(args, flash)


@contextmanager
def _only_one(flash: str) -> Iterator[None]:
    # One simulator per flash (reached by any path): an OS lock on
    # ``<flash>.lock``, beside the directory, so that the store never lists
    # it and --fresh never wipes it; the file goes when the sim ends.
    from bower_host.errors import CommandError, os_error
    from bower_host.oslock import Held, exclusive

    real = os.path.realpath(flash)
    with ExitStack() as stack:
        try:
            os.makedirs(os.path.dirname(real), exist_ok=True)
            stack.enter_context(exclusive(real + ".lock", "bower sim"))
        except Held as e:
            raise CommandError(f"the simulated flash at {flash} is in use by {e}: stop it first, or give another "
                               "--flash DIR") from None
        except OSError as e:
            raise CommandError(f"cannot use the simulated flash at {flash}: {os_error(e)}") from None
        yield


def _sim(args: argparse.Namespace, flash: str) -> int:
    from bower_host.errors import CommandError

    if args.fresh:
        _wipe(flash, ask=args.keys is None and sys.stdin.isatty() and sys.stdout.isatty())
    rand = None
    if args.seed is not None:
        import random

        rnd = random.Random(args.seed)
        rand = rnd.randrange
    try:
        dev = Device(flash, rand)
    except OSError as e:
        raise CommandError(f"cannot use the simulated flash at {flash}: {e}") from e
    served = None
    if args.serve is not None:
        from bower_host.simlink import SimLink

        try:
            served = SimLink(dev.store, dev.info, link=args.serve or None)
        except OSError as e:
            raise CommandError(f"cannot serve the device link: {e}") from e
    old_term = _stop_on_sigterm() if served is not None else None
    try:
        if args.keys is None and sys.stdin.isatty():
            interactive(dev, served)
        else:
            try:
                run_script(dev, args.keys if args.keys is not None else sys.stdin.read())
            except ValueError as e:
                raise CommandError(str(e) if args.keys is not None else f"keys on standard input: {e}") from e
            draw_terminal(dev, clear=False)
            if args.screenshot is not None:
                _screenshot(dev, args, flash)
            if served is not None:
                serve_until_stopped(dev, served)
            return 0
    finally:
        if served is not None:
            served.close()
            if old_term is not None:
                signal.signal(signal.SIGTERM, old_term)
    if args.screenshot is not None:
        _screenshot(dev, args, flash)
    return 0


def _screenshot(dev: Device, args, flash: str) -> None:
    png = screen.png_bytes(dev.gddram() if dev.lit() else bytes(1024), scale=args.scale)
    outputs.write_output(args.screenshot, png, library=None, protect=[flash], option="--screenshot")
    print(f"screenshot: {args.screenshot}", flush=True)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sim", help="run the device firmware in a simulator (keyboard as buttons, OLED in the terminal)")
    p.add_argument("--keys", help="scripted presses instead of the keyboard: u d o b, O (long OK), "
                                  "B (long BACK: undo); a number repeats the next key, e.g. '3d o'")
    p.add_argument("--screenshot", metavar="PNG", help="save the final screen as a PNG")
    p.add_argument("--scale", type=_scale, default=4, help="screenshot pixels per OLED pixel (default 4)")
    p.add_argument("--flash", metavar="DIR", help="directory standing in for the device's flash "
                                                  "(default: the user data directory's sim-flash)")
    p.add_argument("--fresh", action="store_true", help="wipe the simulated flash first (a new device); refused "
                                                        "(asked, on a terminal) while it holds games not synced")
    p.add_argument("--serve", nargs="?", const="", metavar="LINK",
                   help="serve the device's USB link on a pseudo-terminal, for bower sync, roster push and clock "
                        "with --port; LINK: also make a symlink to it at this path. With --keys: the script "
                        "plays, then the link is served until Ctrl-C")
    p.add_argument("--seed", type=int, help="seed for the first-dealer draw")
    p.set_defaults(func=do_sim)
