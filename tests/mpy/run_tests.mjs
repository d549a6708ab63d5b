#!/usr/bin/env node
// Run portable test modules under a real MicroPython (WebAssembly build).
//
//   node tests/mpy/run_tests.mjs [--heap=SIZE] [file-or-dir ...]
//
// With no paths it discovers every tests/**/test_*.py whose first 5 lines
// include the exact line
//
//   # portable: runs under MicroPython
//
// Paths given explicitly are run whether or not they carry the marker (a
// directory is searched for marked test_*.py files, like the default). Files
// may live anywhere: files under the repo's tests/ are imported by their
// dotted name (tests.engine.test_x); others are copied into the interpreter's
// filesystem and imported by their bare name.
//
// Each module-level callable named test_* is called (sorted by name) and
// reported as "PASS module::name" or "FAIL module::name" plus the traceback;
// a module that fails to import counts as one failure. The last line printed
// is "N passed, N failed". Exit status: 0 if every test passed, 1 if any
// failed -- or if no test ran at all.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { loadBower, listPyFiles, copyFile, parseSize, pyStr, REPO_ROOT, HARNESS_MODULE } from "./mp.mjs";

const MARKER = "# portable: runs under MicroPython";
const TESTS_DIR = join(REPO_ROOT, "tests");

/** True if one of the file's first 5 lines is exactly the marker. */
function isPortable(file) {
  const head = readFileSync(file, "utf8").split("\n", 5);
  return head.some((line) => line.replace(/\s+$/, "") === MARKER);
}

/** Marked test_*.py files under dir, sorted. */
function discover(dir) {
  return listPyFiles(dir).filter((f) => /^test_.*\.py$/.test(basename(f)) && isPortable(f));
}

const isInside = (child, parent) => {
  const rel = relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel);
};

// Turn host paths into import specs: {host, modname, moddir, hostDir?}.
// A file outside tests/ is imported by its bare name from /ext/N/, where N
// numbers its host directory; all .py files of that directory are copied
// there with it (not recursively) so that it can import sibling helpers,
// as it could under pytest.
function planModules(files) {
  const extDirs = new Map(); // host directory -> /ext/N
  return files.map((host) => {
    if (isInside(host, TESTS_DIR)) {
      // Already copied to /tests by loadBower; import by dotted path.
      const rel = relative(REPO_ROOT, host).split(sep).join("/");
      return { host, modname: rel.slice(0, -3).replace(/\//g, "."), moddir: "/" + dirname(rel) };
    }
    const hostDir = dirname(host);
    if (!extDirs.has(hostDir)) extDirs.set(hostDir, `/ext/${extDirs.size}`);
    return { host, modname: basename(host).replace(/\.py$/, ""), moddir: extDirs.get(hostDir), hostDir };
  });
}

// Copy a host directory's .py files (top level only, once per interpreter)
// plus `host` itself (which need not end in .py) into spec.moddir.
function copyExt(mp, spec) {
  mp.extCopied ??= new Set();
  if (!mp.extCopied.has(spec.hostDir)) {
    mp.extCopied.add(spec.hostDir);
    for (const ent of readdirSync(spec.hostDir, { withFileTypes: true })) {
      if (ent.isFile() && ent.name.endsWith(".py")) copyFile(mp, join(spec.hostDir, ent.name), `${spec.moddir}/${ent.name}`);
    }
  }
  copyFile(mp, spec.host, `${spec.moddir}/${spec.modname}.py`);
}

// Add the harness's per-module tallies to the running totals.
function addCounts(mp, passed, failed) {
  mp.runPython(`_bower_p = ${HARNESS_MODULE}.passed; _bower_f = ${HARNESS_MODULE}.failed`);
  return [passed + mp.globals.get("_bower_p"), failed + mp.globals.get("_bower_f")];
}

function parseArgs(argv) {
  const opts = { heapsize: undefined, paths: [] };
  for (const a of argv) {
    if (a.startsWith("--heap=")) opts.heapsize = parseSize(a.slice(7));
    else if (a === "-h" || a === "--help") {
      console.log("usage: node tests/mpy/run_tests.mjs [--heap=SIZE] [file-or-dir ...]");
      process.exit(0);
    } else opts.paths.push(a);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let passed = 0;
  let failed = 0;

  // Resolve the list of files.
  let files = [];
  if (opts.paths.length === 0) {
    files = discover(TESTS_DIR);
  } else {
    for (const p of opts.paths) {
      const abs = resolve(p);
      if (!existsSync(abs)) {
        console.log(`FAIL ${p}::<import>\nNo such file or directory: ${abs}`);
        failed++;
      } else if (statSync(abs).isDirectory()) {
        files.push(...discover(abs));
      } else {
        files.push(abs);
      }
    }
  }
  files = [...new Set(files)];

  let mp = null;
  const start = async () => {
    mp = await loadBower({ heapsize: opts.heapsize });
    mp.runPython(`import ${HARNESS_MODULE}`);
  };

  for (const spec of planModules(files)) {
    if (mp === null) await start();
    const label = spec.modname;
    try {
      if (spec.hostDir) copyExt(mp, spec);
      mp.runPython(`${HARNESS_MODULE}.passed = ${HARNESS_MODULE}.failed = 0`);
      mp.runPython(`${HARNESS_MODULE}.run_module(${pyStr(spec.modname)}, ${pyStr(spec.moddir)})`);
      [passed, failed] = addCounts(mp, passed, failed);
      mp.flush();
    } catch (e) {
      // The harness catches every Python exception, so this is either a
      // harness bug (a PythonError) or the interpreter itself dying (a wasm
      // trap / Emscripten abort). Either way count it (keeping the tallies
      // of tests that did run, if they can still be read) and start a fresh
      // interpreter for the remaining modules.
      mp.flush();
      try {
        [passed, failed] = addCounts(mp, passed, failed);
      } catch {
        /* interpreter unusable */
      }
      failed++;
      console.log(`FAIL ${label}::<harness>`);
      console.log(String(e && e.stack ? e.stack : e));
      mp = null;
    }
  }

  console.log(`${passed} passed, ${failed} failed`);
  if (passed + failed === 0) {
    console.error("error: no tests ran (no portable test modules found, or none defined test_* functions)");
    return 1;
  }
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e && e.stack ? e.stack : e);
    process.exit(1);
  },
);
