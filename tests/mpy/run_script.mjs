#!/usr/bin/env node
// Run one Python script under a real MicroPython (WebAssembly build), with
// euchre and bower importable -- e.g. benchmarks reporting gc.mem_alloc().
//
//   node tests/mpy/run_script.mjs [--heap=SIZE] [--engine=DIR] path/to/script.py [args...]
//
// --engine=DIR copies DIR's .py/.mpy files to /lib/euchre instead of
// engine/euchre (same as the BOWER_MP_ENGINE_DIR env variable), e.g. the
// engine precompiled with mpy-cross.
//
// The script runs as __main__ with sys.argv = [<its path in MicroPython>,
// args...] and its directory first on sys.path. A script inside the repo sits
// at its repo-relative path (/tools/x.py), one outside it at /ext/script/, in
// both cases next to copies of the .py files of its host directory so it can
// import sibling helpers. The interpreter cannot see any other host file.
//
// stdout/stderr are forwarded. Exit status: 0 on success, n for sys.exit(n),
// 1 for an uncaught exception (traceback on stderr) or a harness failure.
//
// Scripts that measure memory can run in steps. This build collects garbage
// only at the top level: gc.collect() inside Python merely flags a
// collection that runs when control returns to JavaScript, so within one
// long-running script nothing is ever freed and gc.mem_alloc() counts every
// allocation so far, garbage included. A script that needs exact figures
// hands a generator to the step runner as its last statement:
//
//     import _bower_mpy_steps
//     _bower_mpy_steps.run(main())      # main() is a generator function
//
// After the script body returns, this runner resumes the generator once per
// call from JavaScript until it finishes, collecting the heap between calls:
// right after each `yield`, gc.mem_alloc() counts only live objects. Errors
// and sys.exit() inside the generator give the same exit statuses as above.
// Scripts that never call run() behave exactly as before.

import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, posix, relative, resolve, sep } from "node:path";
import { loadBower, copyFile, mkdirp, parseSize, pyStr, REPO_ROOT, HARNESS_DIR, HARNESS_MODULE } from "./mp.mjs";

// The step runner (see the comment at the top), written next to the harness.
const STEPS_MODULE = "_bower_mpy_steps";
const STEPS_SOURCE = `# Step runner for run_script.mjs (generated; see the comment there).
import gc
import sys

_gen = None
exit_code = 0


def run(gen):
    # Resume gen from JavaScript, one step per call, after the script returns.
    global _gen
    _gen = gen


def step():
    # One step; True while there is more. Flags a collection, which this
    # build performs when control is back at the top level (in JavaScript).
    global _gen, exit_code
    if _gen is None:
        return False
    try:
        next(_gen)
        return True
    except StopIteration:
        exit_code = 0
    except SystemExit as e:
        code = e.args[0] if e.args else None
        if code is None:
            exit_code = 0
        elif isinstance(code, int):
            exit_code = code
        else:
            print(code, file=sys.stderr)
            exit_code = 1
    except BaseException as e:
        sys.print_exception(e, sys.stderr)
        exit_code = 1
    finally:
        gc.collect()
    _gen = None
    return False
`;

const USAGE = "usage: node tests/mpy/run_script.mjs [--heap=SIZE] [--engine=DIR] path/to/script.py [args...]";

async function main() {
  const argv = process.argv.slice(2);
  let heapsize, engineDir;
  while (argv.length && argv[0].startsWith("--")) {
    const a = argv.shift();
    if (a.startsWith("--heap=")) heapsize = parseSize(a.slice(7));
    else if (a.startsWith("--engine=")) engineDir = resolve(a.slice(9));
    else if (a === "--") break;
    else {
      console.error(`unknown option ${a}\n${USAGE}`);
      return 2;
    }
  }
  if (argv.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const [script, ...args] = argv;
  const host = resolve(script);
  if (!existsSync(host)) {
    console.error(`run_script: no such file: ${host}`);
    return 1;
  }

  // Where the script lives inside MicroPython.
  const rel = relative(REPO_ROOT, host);
  const inRepo = rel && !rel.startsWith("..") && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel);
  const fsDir = inRepo ? posix.join("/", dirname(rel).split(sep).join("/")) : "/ext/script";
  const fsPath = posix.join(fsDir, basename(host));

  const mp = await loadBower({ heapsize, engineDir });
  // Sibling .py files (already there for tests/, harmless to copy again).
  const hostDir = dirname(host);
  for (const ent of readdirSync(hostDir, { withFileTypes: true })) {
    if (ent.isFile() && ent.name.endsWith(".py")) copyFile(mp, join(hostDir, ent.name), posix.join(fsDir, ent.name));
  }
  copyFile(mp, host, fsPath);
  mkdirp(mp.FS, HARNESS_DIR);
  mp.FS.writeFile(`${HARNESS_DIR}/${STEPS_MODULE}.py`, STEPS_SOURCE);

  const pyArgv = "[" + [fsPath, ...args].map(pyStr).join(", ") + "]";
  mp.runPython(`import ${HARNESS_MODULE}`);
  mp.runPython(`${HARNESS_MODULE}.run_script(${pyStr(fsPath)}, ${pyArgv})`);
  mp.runPython(`_bower_rc = ${HARNESS_MODULE}.exit_code`);
  let rc = mp.globals.get("_bower_rc");
  if (rc === 0) {
    // Steps handed to _bower_mpy_steps.run(), if any: one call each, so the
    // heap is collected at the top level between them.
    mp.runPython(`import ${STEPS_MODULE}`);
    for (;;) {
      mp.runPython(`_bower_more = ${STEPS_MODULE}.step()`);
      if (!mp.globals.get("_bower_more")) break;
    }
    mp.runPython(`_bower_rc = ${STEPS_MODULE}.exit_code`);
    rc = mp.globals.get("_bower_rc");
  }
  mp.flush();
  // Exit statuses are 0..255 on POSIX; map anything odd to plain failure.
  return Number.isInteger(rc) && rc >= 0 && rc <= 255 ? rc : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e && e.stack ? e.stack : e);
    process.exit(1);
  },
);
