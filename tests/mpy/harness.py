"""Python half of the MicroPython test harness (runs *inside* MicroPython).

The Node drivers (run_tests.mjs, run_script.mjs) copy the repository into the
WebAssembly interpreter's filesystem and then call into this module; it is
deliberately tiny and sticks to what MicroPython supports (no f-strings with
format specs, no traceback module -- sys.print_exception instead).

Results go back to JavaScript as ints in this module's globals (the drivers
copy them into __main__ and read them with ``mp.globals.get``); everything
human-readable goes to stdout so PASS/FAIL lines and tracebacks stay in order.

This file is not a pytest test module and never runs under CPython.
"""

import gc
import sys

# Tallies read by run_tests.mjs after each run_module() call.
passed = 0
failed = 0
# Exit status read by run_script.mjs after run_script().
exit_code = 0


def _print_exc(exc, file=None):
    # sys.print_exception prints "Traceback ... / Type: message".
    if file is None:
        sys.print_exception(exc)
    else:
        sys.print_exception(exc, file)


def _with_path(extra_dir, fn):
    """Run fn() with extra_dir at the front of sys.path (like pytest's
    'prepend' import mode puts a test file's directory on sys.path, so that
    a test can import a sibling helper module by its bare name)."""
    added = False
    if extra_dir and extra_dir not in sys.path:
        sys.path.insert(0, extra_dir)
        added = True
    try:
        return fn()
    finally:
        if added:
            sys.path.remove(extra_dir)


def run_module(modname, moddir):
    """Import ``modname`` (with ``moddir`` temporarily on sys.path) and run
    each of its module-level callables named test_*.

    Tests run sorted by name (MicroPython module dicts do not keep definition
    order). An import failure counts as one failure. Updates the module-level
    ``passed`` / ``failed`` tallies.
    """
    _with_path(moddir, lambda: _run_module(modname))


def _run_module(modname):
    global passed, failed
    try:
        __import__(modname)
        mod = sys.modules[modname]
    except BaseException as e:  # SyntaxError, ImportError, even SystemExit
        failed += 1
        print("FAIL %s::<import>" % modname)
        _print_exc(e)
        return

    names = sorted(n for n in dir(mod) if n.startswith("test_"))
    for name in names:
        fn = getattr(mod, name)
        if not callable(fn):
            continue
        gc.collect()
        try:
            fn()
        except BaseException as e:  # a test calling sys.exit() fails too
            failed += 1
            print("FAIL %s::%s" % (modname, name))
            _print_exc(e)
        else:
            passed += 1
            print("PASS %s::%s" % (modname, name))

    # Drop the module so its objects can be collected before the next one.
    sys.modules.pop(modname, None)  # (a test may already have removed it)
    gc.collect()


def run_script(path, argv):
    """Execute the file at ``path`` as __main__ with sys.argv = argv.

    Sets ``exit_code``: 0 on success, the SystemExit code if the script calls
    sys.exit(n), 1 on an uncaught exception (traceback to stderr).
    """
    global exit_code
    sys.argv[:] = argv
    with open(path) as f:
        src = f.read()
    # The script's own directory goes first on sys.path, as in CPython.
    d = path.rsplit("/", 1)[0] if "/" in path else ""
    if d and d not in sys.path:
        sys.path.insert(0, d)
    g = {"__name__": "__main__", "__file__": path}
    try:
        exec(compile(src, path, "exec"), g)
        exit_code = 0
    except SystemExit as e:
        code = e.args[0] if e.args else None
        if code is None:
            exit_code = 0
        elif isinstance(code, int):
            exit_code = code
        else:  # sys.exit("message"): print it, exit 1 -- as CPython does
            print(code, file=sys.stderr)
            exit_code = 1
    except BaseException as e:
        _print_exc(e, sys.stderr)
        exit_code = 1
