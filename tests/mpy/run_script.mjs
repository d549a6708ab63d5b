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

import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, posix, relative, resolve, sep } from "node:path";
import { loadBower, copyFile, parseSize, pyStr, REPO_ROOT, HARNESS_MODULE } from "./mp.mjs";

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

  const pyArgv = "[" + [fsPath, ...args].map(pyStr).join(", ") + "]";
  mp.runPython(`import ${HARNESS_MODULE}`);
  mp.runPython(`${HARNESS_MODULE}.run_script(${pyStr(fsPath)}, ${pyArgv})`);
  mp.runPython(`_bower_rc = ${HARNESS_MODULE}.exit_code`);
  mp.flush();
  const rc = mp.globals.get("_bower_rc");
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
