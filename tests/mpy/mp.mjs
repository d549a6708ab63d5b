// Loads a real MicroPython (the WebAssembly port, from npm) with Bower's code
// on its filesystem, laid out the way it is on the Pico:
//
//   engine/euchre/**.py   -> /lib/euchre/        (import euchre; or another
//                                                 directory: BOWER_MP_ENGINE_DIR)
//   firmware/bower/**.py  -> /lib/bower/         (import bower)
//   firmware/lib/**.py    -> /lib/               (import ssd1306)
//   tests/**.py           -> /tests/             (import tests.engine.test_x)
//   tests/mpy/harness.py  -> /harness/_bower_mpy_harness.py  (driver helpers)
//
// sys.path keeps MicroPython's default ['', '.frozen', '/lib'] (the same as on
// the device); the working directory is '/', so '' resolves /tests/... too.
//
// Used by run_tests.mjs and run_script.mjs; see those for the command lines.

import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

// Repository root: this file is <root>/tests/mpy/mp.mjs. Resolved from the
// module's own URL so the scripts work from any working directory.
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]$/, "");

// Initial MicroPython GC heap. NB: this build grows its heap on demand
// (gc.mem_free() reports ~130 MB whatever is asked for), so this is *not* a
// ceiling like the Pico's RAM; measure with gc.mem_alloc() instead.
// Override with loadBower({heapsize}) or the BOWER_MP_HEAPSIZE env variable
// (bytes, or with a k/m suffix: "512k", "2m").
export const DEFAULT_HEAPSIZE = 2 * 1024 * 1024;

// Where the harness module lives inside MicroPython (kept off the '' / /lib
// paths so it can never shadow, or be shadowed by, a module under test).
export const HARNESS_DIR = "/harness";
export const HARNESS_MODULE = "_bower_mpy_harness";

const MP_PACKAGE = "@micropython/micropython-webassembly-pyscript";

// Imported lazily so that a missing node_modules gives a useful message.
async function importMicroPython() {
  try {
    return (await import(MP_PACKAGE)).loadMicroPython;
  } catch (e) {
    if (e && e.code === "ERR_MODULE_NOT_FOUND") {
      throw new Error(`${MP_PACKAGE} is not installed (no node_modules): run \`make setup\` (or \`npm install\`) in ${REPO_ROOT}`);
    }
    throw e;
  }
}

/** Parse "2097152", "512k", "2m" (case-insensitive) into a byte count. */
export function parseSize(text) {
  const m = /^\s*(\d+)\s*([km]?)b?\s*$/i.exec(String(text));
  if (!m) throw new Error(`bad size ${JSON.stringify(text)} (want bytes, or N k / N m)`);
  const mult = { "": 1, k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()];
  return Number(m[1]) * mult;
}

/** mkdir -p inside the Emscripten filesystem. */
export function mkdirp(FS, path) {
  let cur = "";
  for (const part of path.split("/").filter(Boolean)) {
    cur += "/" + part;
    if (!FS.analyzePath(cur).exists) FS.mkdir(cur);
  }
}

/** Write one host file into the MicroPython filesystem at fsPath. */
export function copyFile(mp, hostPath, fsPath) {
  mkdirp(mp.FS, fsPath.slice(0, fsPath.lastIndexOf("/")) || "/");
  mp.FS.writeFile(fsPath, readFileSync(hostPath));
}

const SKIP_DIRS = new Set(["__pycache__", "node_modules"]);

/** Host paths of every .py file under dir (recursive, sorted; skips
 *  __pycache__, node_modules and dot-directories). [] if dir is missing.
 *  exts: the file-name endings to list (default only ".py"). */
export function listPyFiles(dir, exts = [".py"]) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const ent of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) {
      if (!SKIP_DIRS.has(ent.name) && !ent.name.startsWith(".")) out.push(...listPyFiles(p, exts));
    } else if (exts.some((e) => ent.name.endsWith(e)) && statSync(p).isFile()) {
      out.push(p);
    }
  }
  return out;
}

/** Copy every .py file (or every file ending in one of exts) under hostDir
 *  to fsDir, keeping the tree shape. Returns the number of files copied. */
export function copyTree(mp, hostDir, fsDir, exts = [".py"]) {
  const files = listPyFiles(hostDir, exts);
  mkdirp(mp.FS, fsDir);
  for (const f of files) {
    copyFile(mp, f, fsDir + "/" + relative(hostDir, f).split(sep).join("/"));
  }
  return files.length;
}

/** Convert a JS string to a Python string literal (JSON's escapes are a
 *  subset of Python's, so this is safe for any text). */
export const pyStr = (s) => JSON.stringify(String(s));

// Emscripten is given per-byte output callbacks (linebuffer: false) and we
// assemble lines ourselves: with the package's own line buffering a final
// line without "\n" (print(x, end="")) would be silently lost.
function makeSink(write) {
  let buf = [];
  const flush = () => {
    if (buf.length) {
      write(Buffer.from(buf).toString("utf8"));
      buf = [];
    }
  };
  const put = (bytes) => {
    for (const b of bytes) {
      buf.push(b);
      if (b === 10) flush();
    }
  };
  return { put, flush };
}

/**
 * Start MicroPython with Bower's code on its filesystem.
 *
 * @param {object}   [opts]
 * @param {number}   [opts.heapsize] initial GC heap in bytes (see DEFAULT_HEAPSIZE)
 * @param {number}   [opts.pystack]  Python stack size passed through (package default if unset)
 * @param {string}   [opts.engineDir] host directory copied to /lib/euchre instead of
 *                                   engine/euchre (.py and .mpy files); default from
 *                                   the BOWER_MP_ENGINE_DIR env variable
 * @param {function} [opts.stdout]   receives output text, a line (with "\n") at a time;
 *                                   defaults to writing to process.stdout
 * @param {function} [opts.stderr]   likewise for stderr
 * @returns the MicroPython object from loadMicroPython ({FS, runPython, globals,
 *          pyimport, ...}) plus .flush() (emit any partial output line) and .repoRoot.
 */
export async function loadBower(opts = {}) {
  const heapsize =
    opts.heapsize ??
    (process.env.BOWER_MP_HEAPSIZE ? parseSize(process.env.BOWER_MP_HEAPSIZE) : DEFAULT_HEAPSIZE);
  const out = makeSink(opts.stdout ?? ((t) => process.stdout.write(t)));
  const err = makeSink(opts.stderr ?? ((t) => process.stderr.write(t)));

  const mpOpts = { heapsize, linebuffer: false, stdout: out.put, stderr: err.put };
  if (opts.pystack !== undefined) mpOpts.pystack = opts.pystack;
  const loadMicroPython = await importMicroPython();
  const mp = await loadMicroPython(mpOpts);
  mp.flush = () => {
    out.flush();
    err.flush();
  };
  mp.repoRoot = REPO_ROOT;

  // The engine: engine/euchre's .py sources, or -- opts.engineDir or the
  // BOWER_MP_ENGINE_DIR env variable -- another directory's .py and .mpy
  // files (e.g. the engine precompiled by mpy-cross, for benchmarks). Put
  // only .mpy files there to load them: MicroPython prefers x.py to x.mpy.
  const engineDir = opts.engineDir ?? process.env.BOWER_MP_ENGINE_DIR;
  if (engineDir) {
    if (!existsSync(engineDir) || !statSync(engineDir).isDirectory()) {
      throw new Error(`engine directory ${JSON.stringify(engineDir)} (BOWER_MP_ENGINE_DIR / engineDir) does not exist`);
    }
    if (copyTree(mp, engineDir, "/lib/euchre", [".py", ".mpy"]) === 0) {
      throw new Error(`engine directory ${JSON.stringify(engineDir)} holds no .py or .mpy file`);
    }
  } else {
    copyTree(mp, join(REPO_ROOT, "engine", "euchre"), "/lib/euchre");
  }
  copyTree(mp, join(REPO_ROOT, "firmware", "bower"), "/lib/bower");
  // Vendored device libraries (the ssd1306 driver), as deploy puts them.
  const fwLib = join(REPO_ROOT, "firmware", "lib");
  if (existsSync(fwLib)) copyTree(mp, fwLib, "/lib");
  // (the rule cases too: tests/engine/cases/*.cases, read by tests/engine/rulecases.py)
  copyTree(mp, join(REPO_ROOT, "tests"), "/tests", [".py", ".cases"]);
  copyFile(mp, join(REPO_ROOT, "tests", "mpy", "harness.py"), `${HARNESS_DIR}/${HARNESS_MODULE}.py`);

  // Device-like path; make sure '' and /lib are there whatever the build's
  // default is, and put the harness last so it never shadows anything.
  mp.runPython(`
import os, sys
os.chdir("/")
for _p in ("", "/lib"):
    if _p not in sys.path:
        sys.path.append(_p)
sys.path.append(${pyStr(HARNESS_DIR)})
del _p
`);
  return mp;
}
