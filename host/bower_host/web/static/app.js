// Bower on a phone: the page around the device. The device itself is the
// Pico's firmware (the `bower` and `euchre` packages, compiled into
// bower.pak) run by MicroPython's WebAssembly port through the browser board
// `bower.webboard`, which this script calls a loop pass at a time. This
// script owns what a Pico's board would: the screen (a canvas drawn from the
// panel's display RAM), the four buttons (touch, mouse and keyboard), and the
// flash (IndexedDB: every file the store writes is stored, in one
// transaction, before the next input is read). Served by `bower club serve`,
// it is also a club table's link to the organiser's laptop (bower.clubnet:
// "the club night's server" below).

import { loadMicroPython } from "./micropython.mjs";

const ROOT = "/flash";
const FRAME = 1, FILES = 2, BUSY = 4, DARK = 8, EXPORT = 16, RESET = 32;
const FORMAT = 1;                 // the layout of what this page keeps in IndexedDB (another value: read alike)
const KEYS = { ArrowUp: 0, ArrowDown: 1, Enter: 2, " ": 2, Backspace: 3, Escape: 3 };
const LIT = [198, 232, 255], GAP = [14, 16, 20];     // bower_host.screen's OLED_WHITE and GAP
const IDLE_MS = 250;              // a pass this often when nothing happens (dimming, toasts)
const FULL_KEY = "bower.full";    // (sessionStorage) the browser refused a commit in this tab: full
const SAID_KEY = "bower.said";    // (sessionStorage) what the page said before it started again

const statusLine = document.getElementById("status");
const canvas = document.getElementById("screen");
const say = (text) => { statusLine.textContent = text; };

// ----- the flash: IndexedDB ------------------------------------------------------------

function request(r) {
  return new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
}

class Flash {
  static async open() {
    // The database at whatever version it is (another build's, a newer
    // one's too: asking for version 1 would fail), with the two stores this
    // page keeps made if they are missing.
    const f = new Flash();
    f.db = await request(indexedDB.open("bower"));
    const missing = ["files", "meta"].filter((n) => !f.db.objectStoreNames.contains(n));
    if (missing.length) {
      const r = indexedDB.open("bower", f.db.version + 1);
      f.db.close();
      r.onupgradeneeded = () => { for (const n of missing) r.result.createObjectStore(n); };
      f.db = await request(r);
    }
    f.db.onversionchange = () => f.db.close();    // (another tab's upgrade is not blocked)
    return f;
  }

  async meta(key) {
    return request(this.db.transaction("meta").objectStore("meta").get(key));
  }

  async setMeta(key, value) {
    await this.commit([], [[key, value]]);
  }

  async files() {
    // {path: Uint8Array | "dir"}; a value of any other kind (damaged, or
    // written by another version) is given to the store as the bytes it
    // holds, so the device's own checks find it damaged.
    const store = this.db.transaction("files").objectStore("files");
    const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
    const out = new Map();
    keys.forEach((k, i) => {
      if (typeof k !== "string" || !k.startsWith(ROOT + "/")) return;
      const v = values[i];
      if (v === "dir") out.set(k, "dir");
      else if (v instanceof Uint8Array) out.set(k, v);
      else if (v instanceof ArrayBuffer) out.set(k, new Uint8Array(v));
      else out.set(k, new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v) ?? ""));
    });
    return out;
  }

  commit(changes, meta = []) {
    // One transaction: resolved once it is durable ("strict": on disk, not
    // only in the browser's memory), rejected (quota, I/O) with nothing of it kept.
    return new Promise((resolve, reject) => {
      const tx = this.db.transaction(["files", "meta"], "readwrite", { durability: "strict" });
      const files = tx.objectStore("files");
      for (const [path, value] of changes) {
        if (value === null) files.delete(path);
        else files.put(value, path);
      }
      for (const [k, v] of meta) tx.objectStore("meta").put(v, k);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error || new Error("the transaction was aborted"));
    });
  }
}

let full = false;                 // the browser refused a commit this session: its storage is full

async function room() {
  // Bytes the browser lets this site keep beyond what it keeps now, less a
  // margin for IndexedDB's own overhead: the flash's free space, read again
  // after each commit. Only an upper bound: Chromium's estimate() gives a
  // quota of the usage plus 10 GiB whatever the real one is, so the one
  // sure sign of a full storage is a commit it refuses; from then on, for
  // the rest of the session (the tab's: a reload too), the room is 0 (a
  // removal does not give room back either, until the browser compacts).
  try { full = full || !!sessionStorage.getItem(FULL_KEY); } catch { /* (no sessionStorage: this page's word) */ }
  if (full) return 0;
  try {
    const { quota, usage } = await navigator.storage.estimate();
    return Math.max(0, Math.min(64 << 20, quota - usage - (256 << 10)));
  } catch {
    return 8 << 20;
  }
}

// ----- the Pico's heap -------------------------------------------------------------------------

// The Pico's GC pool (../shared/pico-timing.md: 4,384 B the bare firmware
// holds + 241,504 B free at boot) as the first heap area. This port adds
// areas when one is full and collects only as a call from the page returns,
// so the budget is kept by the board (bower.webboard, "the Pico's heap").
const HEAP = 245888;

// ----- MicroPython's filesystem ------------------------------------------------------------

function mkdirs(FS, path) {
  let cur = "";
  for (const part of path.split("/").filter(Boolean)) {
    cur += "/" + part;
    if (!FS.analyzePath(cur).exists) FS.mkdir(cur);
  }
}

function unpack(FS, pak, root) {
  // bower.pak (firmware/lib/bowerpak.py's format): "BPAK1 INDEX DATA\n", the
  // index ("path offset length\n" each), the modules' bytes.
  const nl = pak.indexOf(10);
  const [magic, ni, nd] = new TextDecoder().decode(pak.subarray(0, nl)).split(" ");
  if (magic !== "BPAK1" || pak.length !== nl + 1 + Number(ni) + Number(nd)) throw new Error("bower.pak is damaged");
  const data = nl + 1 + Number(ni);
  for (const line of new TextDecoder().decode(pak.subarray(nl + 1, data)).split("\n")) {
    if (!line) continue;
    const [path, off, len] = line.split(" ");
    const file = `${root}/${path}`;
    mkdirs(FS, file.slice(0, file.lastIndexOf("/")));
    FS.writeFile(file, pak.subarray(data + Number(off), data + Number(off) + Number(len)));
  }
}

function restore(FS, files) {
  // The flash's files into MicroPython's filesystem. What no filesystem
  // could hold is left out (the store then finds it missing): a name with
  // an empty, "." or ".." part, or a file where a directory is (a name
  // that other names are under: the directory wins).
  mkdirs(FS, ROOT);
  const ok = [...files.keys()].filter((p) => p.split("/").slice(2).every((x) => x && x !== "." && x !== ".."));
  const dirs = new Set();
  for (const p of ok) for (let i = p.indexOf("/", 1); i > 0; i = p.indexOf("/", i + 1)) dirs.add(p.slice(0, i));
  const paths = ok.sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
  for (const p of paths) {
    const v = files.get(p);
    if (v === "dir") mkdirs(FS, p);
    else if (!dirs.has(p)) {
      mkdirs(FS, p.slice(0, p.lastIndexOf("/")));
      FS.writeFile(p, v);
    }
  }
}

function changes(FS, written) {
  // What the store changed, as [path, Uint8Array | "dir" | null (gone)].
  const out = [];
  for (const p of written.split("\n")) {
    if (!p) continue;
    const a = FS.analyzePath(p);
    if (!a.exists) out.push([p, null]);
    else if (FS.isDir(a.object.mode)) out.push([p, "dir"]);
    else out.push([p, FS.readFile(p)]);
  }
  return out;
}

// ----- the screen ------------------------------------------------------------------------------

let scale = 1, left = 0, top = 0;

function screenRoom() {
  // The screen's widest CSS width that leaves the rest of the page on it:
  // beside the keys in a short landscape (style.css), above them otherwise;
  // [width, 2 x height] (the screen is 2:1).
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  const px = (el, side) => parseFloat(getComputedStyle(el)[side]) || 0;
  const device = document.getElementById("device"), keys = document.getElementById("keys");
  const status = document.getElementById("status"), note = document.getElementById("note");
  const bezel = document.getElementById("bezel");
  const padX = px(device, "paddingLeft") + px(device, "paddingRight");
  const padY = px(device, "paddingTop") + px(device, "paddingBottom");
  const gap = px(device, "rowGap"), frame = 2 * px(bezel, "paddingLeft");
  const h = (el) => el.getBoundingClientRect().height;
  if (getComputedStyle(device).gridTemplateColumns.split(" ").length > 1) {      // beside the keys
    return [vw - padX - keys.getBoundingClientRect().width - px(device, "columnGap") - frame,
            2 * (vh - padY - gap - Math.max(h(status), h(note)) - frame)];
  }
  return [vw - padX - frame, 2 * (vh - padY - 3 * gap - h(status) - h(keys) - h(note) - frame)];
}

function fit(redraw) {
  // The canvas is as large as the page leaves it, in whole device pixels:
  // its backing store is exactly the pixels it is painted on (its CSS size
  // is that over the pixel ratio), so nothing is ever resampled, and the
  // picture is drawn in it at the largest whole number of device pixels per
  // OLED pixel, centred. Never blurred, at any pixel ratio.
  const dpr = window.devicePixelRatio || 1;
  const room = Math.max(128 / dpr, Math.min(...screenRoom()));
  const w = Math.max(128, Math.floor(room * dpr));
  const h = Math.floor(w / 2);
  canvas.width = w;
  canvas.height = h;
  canvas.style.width = `${w / dpr}px`;
  canvas.style.height = `${h / dpr}px`;
  scale = Math.max(1, Math.min(Math.floor(w / 128), Math.floor(h / 64)));
  left = ((w - 128 * scale) / 2) | 0;
  top = ((h - 64 * scale) / 2) | 0;
  image = null;
  redraw();
}

let image = null;     // (the picture's pixels, kept between draws; null after fit() clears the canvas)
let drawn = null;     // (the display RAM and darkness the picture shows)

function draw(ram, dark) {
  // As bower_host.screen.to_image draws a screenshot: each lit pixel a
  // scale x scale square, a dark line between pixels from scale 3 up. Only
  // the panel's pages (8 rows each) that changed since the last draw are
  // drawn and put (a tap's draw is most of its time at a phone's pixel
  // ratio); one device row is made per OLED row and copied. True if any
  // page changed (what a tap's measure waits for). ImageData is
  // RGBA bytes, so a pixel written as a 32-bit word is ABGR on these
  // little-endian machines.
  const w = 128 * scale, h = 64 * scale;
  const ctx = canvas.getContext("2d");
  if (image === null || image.width !== w || image.height !== h) {
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    image = ctx.createImageData(w, h);
    drawn = null;
  }
  let first = 8, last = -1;
  for (let p = 0; p < 8; p++) {
    let same = drawn !== null && drawn.dark === dark;
    for (let i = p * 128; same && i < p * 128 + 128; i++) same = ram[i] === drawn.ram[i];
    if (!same) { first = Math.min(first, p); last = p; }
  }
  if (last < 0) return false;
  drawn = { ram: Uint8Array.from(ram), dark };
  const px = new Uint32Array(image.data.buffer);
  const word = (c) => ((255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0;
  const on = word(LIT), off = word([0, 0, 0]), line = word(GAP);
  const gap = scale >= 3;
  const body = gap ? scale - 1 : scale;       // (the rows of a pixel before its dark line)
  for (let oy = first * 8; oy < last * 8 + 8; oy++) {
    const row = oy * scale * w, page = (oy >> 3) * 128, bit = oy & 7;
    for (let ox = 0; ox < 128; ox++) {
      const at = row + ox * scale;
      px.fill(!dark && (ram[page + ox] >> bit) & 1 ? on : off, at, at + scale);
      if (gap) px[at + scale - 1] = line;
    }
    for (let k = 1; k < body; k++) px.copyWithin(row + k * w, row, row + w);
    if (gap) px.fill(line, row + body * w, row + scale * w);
  }
  const y = first * 8 * scale;
  ctx.putImageData(image, left, top, 0, y, w, (last + 1) * 8 * scale - y);
  return true;
}

// ----- logs leave the phone -----------------------------------------------------------------

function zip(members) {
  // A zip archive of [name, Uint8Array] members, stored (not compressed:
  // the logs are small, and any unzip and `bower import` read it).
  const crcTable = zip.table || (zip.table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  }));
  const crc32 = (b) => { let c = ~0; for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return ~c >>> 0; };
  const d = new Date();
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1);
  const date = ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  const parts = [], central = [];
  let at = 0;
  const header = (sig, size) => { const h = new DataView(new ArrayBuffer(size)); h.setUint32(0, sig, true); return h; };
  for (const [name, data] of members) {
    const n = new TextEncoder().encode(name), crc = crc32(data);
    const local = header(0x04034b50, 30);
    const cen = header(0x02014b50, 46);
    // (version needed 2.0, flags, method 0, time, date, CRC, sizes, name length)
    [[local, 4], [cen, 6]].forEach(([h, o]) => {
      h.setUint16(o, 20, true); h.setUint16(o + 6, time, true); h.setUint16(o + 8, date, true);
      h.setUint32(o + 10, crc, true); h.setUint32(o + 14, data.length, true); h.setUint32(o + 18, data.length, true);
      h.setUint16(o + 22, n.length, true);
    });
    cen.setUint16(4, 20, true);
    cen.setUint32(42, at, true);
    parts.push(new Uint8Array(local.buffer), n, data);
    central.push(new Uint8Array(cen.buffer), n);
    at += 30 + n.length + data.length;
  }
  const size = central.reduce((s, b) => s + b.length, 0);
  const end = header(0x06054b50, 22);
  end.setUint16(8, members.length, true); end.setUint16(10, members.length, true);
  end.setUint32(12, size, true); end.setUint32(16, at, true);
  return new Blob([...parts, ...central, new Uint8Array(end.buffer)], { type: "application/zip" });
}

async function exportLogs(device) {
  // "Export logs" in the device's settings: every game's log, byte for byte
  // as a sync reads it, in one zip (DEVICE/GAME.log each, as `bower import`
  // reads it): handed to another app where the browser can share such a
  // file (Web Share), else downloaded.
  const FS = device.mp.FS, dir = device.board.exports;    // (where the board copied each game's log)
  const members = FS.readdir(dir).filter((n) => n.endsWith(".log")).sort()
    .map((n) => [`${device.device}/${n}`, FS.readFile(`${dir}/${n}`)]);
  if (members.length > 0xffff) throw new Error(`${members.length} games are more than one zip archive holds`);
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  const name = `bower-${device.device}-${stamp}.zip`;
  const blob = zip(members);
  const games = `${members.length} game${members.length === 1 ? "" : "s"}`;
  const file = new File([blob], name, { type: "application/zip" });
  if (navigator.canShare && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: "Bower's game logs" });
      say(`Shared ${games} (${name}): bower import reads it.`);
      return;
    } catch (e) {
      if (e && e.name === "AbortError") { say("Export not shared."); return; }
      // (not allowed here, e.g. no recent tap: download it instead)
    }
  }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
  say(`Downloaded ${games} as ${name}: bower import reads it.`);
}

// ----- the club night's server ---------------------------------------------------------------

// The phone's link to `bower club serve` (bower.clubnet, through the board:
// it says what to send, this page sends it and gives the reply back). Only
// a phone that joined a table, or is joining one (`?join=CODE` in the
// page's address), makes any request.
const NET_MS = 1000;              // the link's pass this often (the Net itself says what is due)
const NET_TIMEOUT_MS = 10000;     // no reply in this time: none (offline)
const JOIN_KEY = "bower.join";    // (sessionStorage) a join code not answered yet (a reload keeps it)

async function send(method, path, token, body) {
  // One request to the server this page came from (it is at /phone/: the
  // path is the server root's): [status, text], status 0 without a reply.
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), NET_TIMEOUT_MS);
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const r = await fetch(new URL("../" + path, location), { method, headers, body: body ?? undefined,
                                                            cache: "no-store", credentials: "omit", signal: ctl.signal });
    return [r.status, await r.text()];
  } catch {
    return [0, ""];
  } finally {
    clearTimeout(timer);
  }
}

function joinCode() {
  // A join code in the page's address (taken out of it at once: the
  // address bar is no place to keep it), else one a reload left unanswered.
  const q = new URLSearchParams(location.search);
  let code = q.get("join");
  if (code !== null) {
    q.delete("join");
    const rest = q.toString();
    history.replaceState(history.state, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
    try { sessionStorage.setItem(JOIN_KEY, code); } catch { /* (this page's word only) */ }
  } else {
    try { code = sessionStorage.getItem(JOIN_KEY); } catch { /* (none) */ }
  }
  return code || null;
}

// ----- the device ------------------------------------------------------------------------------

const ticks = () => Math.round(performance.now()) & 0x3fffffff;   // as MicroPython's ticks_ms

async function boot() {
  // The build's version, through the service worker like every file (for
  // the tests and for a bug report; nothing the device draws shows it).
  const version = fetch("version.json").then((r) => r.json()).then((v) => v.version).catch(() => null);
  const flash = await Flash.open();
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  let device = await flash.meta("device");
  if (typeof device !== "string" || !/^[0-9a-f]{16}$/.test(device)) {
    const b = crypto.getRandomValues(new Uint8Array(8));
    device = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    await flash.commit([], [["device", device], ["format", FORMAT]]);
  }
  const files = await flash.files();
  const out = [];
  const mp = await loadMicroPython({ heapsize: HEAP, linebuffer: true,
                                     stdout: (t) => out.push(t), stderr: (t) => out.push(t) });
  const pak = new Uint8Array(await (await fetch("bower.pak")).arrayBuffer());
  unpack(mp.FS, pak, "/lib");
  restore(mp.FS, files);
  mp.runPython(`
import sys, time
if "/lib" not in sys.path:
    sys.path.append("/lib")
from bower.webboard import WebBoard
board = WebBoard(${JSON.stringify(ROOT)}, ${JSON.stringify(device)}, time.time, ${await room()})
`);
  return { mp, flash, board: mp.globals.get("board"), device, out, version: await version };
}

function run(device) {
  const { mp, flash, board } = device;
  let mask = 0;
  let running = false, again = false, idle = null, halted = false, stopped = false;
  let input = null, first = true;   // (the time of the input no draw has answered yet; no screen yet)
  const FS = mp.FS;
  const step = board.step, edge = board.edge, written = board.written;   // (one proxy each, not one a call)
  // (what a test waits for: no pass running or due, every input stored)
  device.settled = () => !running && !again && !halted && mask === 0;

  function refused(e) {
    // The browser did not keep the last step's files (its storage full, or
    // an I/O error): the device must not go on believing that input kept.
    // Nothing more is read; the page starts again on what the flash keeps,
    // as after a power cut (that input lost), and, the storage full,
    // knowing it: the device's own "Storage full" path from then on (room
    // 0). (A reload: MicroPython's port keeps its proxies in globals, so a
    // second one in the same page corrupts the first's memory.)
    halted = true;
    const quota = e && e.name === "QuotaExceededError";
    const why = quota ? "Storage full: the last input was not kept."
                      : `The last input was not kept (${e && e.name ? e.name : e}).`;
    try {
      if (quota) sessionStorage.setItem(FULL_KEY, "1");
      sessionStorage.setItem(SAID_KEY, why);
    } catch {
      say(`${why} Reload the page to go on.`);     // (no reload that would only refuse again)
      return;
    }
    say(`${why} Starting again...`);
    location.reload();
  }

  function show(ram, dark) {
    // Draw; the first draw that changes the picture after an input is
    // measured from that input's event (performance entries "bower:tap").
    const changed = draw(ram, dark);
    if (first) performance.mark("bower:first-screen");
    first = false;
    if (changed && input !== null) {
      performance.measure("bower:tap", { start: input, end: performance.now() });
      input = null;
    }
  }

  async function pump() {
    if (halted || stopped) return;
    if (running) { again = true; return; }
    running = true;
    clearTimeout(idle);
    try {
      do {
        again = false;
        let flags;
        try {
          flags = step(mask, ticks());
        } catch (e) {
          // Even the device's error screen failed: say so, keep what is shown.
          stopped = true;
          say(`Bower stopped: ${e && e.message ? e.message.trim().split("\n").pop() : e}. Reload the page to start again.`);
          return;
        }
        if (flags & FRAME) {
          show(FS.readFile("/frame"), !!(flags & DARK));
          device.frames = (device.frames || 0) + 1;
        }
        if (flags & FILES) {
          try {
            await flash.commit(changes(FS, written()));
          } catch (e) {
            refused(e);
            return;
          }
          board.set_room(await room());
          netSoon(50);        // (a hand's result, or a round's: sent now)
        }
        if (flags & EXPORT) exportLogs(device).catch((e) => say(`Export failed: ${e && e.message ? e.message : e}`));
        if (flags & RESET) {
          stopped = true;
          location.reload();
          return;
        }
        if (flags & BUSY) again = true;
        if (again) await new Promise((r) => setTimeout(r, 4));
      } while (again);
    } catch (e) {
      halted = true;
      say(`Bower stopped: ${e && e.message ? e.message.split("\n").slice(-2).join(" ") : e}`);
      throw e;
    } finally {
      running = false;
    }
    input = null;
    idle = setTimeout(pump, IDLE_MS);
  }

  const press = (bit, down, at) => {
    const t = ticks();
    if (halted || down === !!(mask & (1 << bit))) return;
    input = at;
    edge(bit, down ? 1 : 0, t);
    mask = down ? mask | (1 << bit) : mask & ~(1 << bit);
    if (down && navigator.vibrate) navigator.vibrate(8);
    pump();
  };
  for (const b of document.querySelectorAll("#keys button")) {
    const bit = Number(b.dataset.bit);
    b.addEventListener("pointerdown", (e) => { e.preventDefault(); b.setPointerCapture(e.pointerId);
                                               b.classList.add("down"); press(bit, true, e.timeStamp); });
    const up = (e) => { e.preventDefault(); b.classList.remove("down"); press(bit, false, e.timeStamp); };
    b.addEventListener("pointerup", up);
    b.addEventListener("pointercancel", up);
    b.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  window.addEventListener("keydown", (e) => {
    if (!(e.key in KEYS) || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (!e.repeat) press(KEYS[e.key], true, e.timeStamp);
  });
  window.addEventListener("keyup", (e) => {
    if (e.key in KEYS) { e.preventDefault(); press(KEYS[e.key], false, e.timeStamp); }
  });
  window.addEventListener("blur", () => { for (let bit = 0; bit < 4; bit++) press(bit, false, null); });
  const net = { next: board.net_next, answer: board.net_answer, said: board.net_said, joining: board.net_joining };
  let netOn = false, netBusy = false, netTimer = null, netSaid = "";
  function netSoon(ms) {
    if (!netOn || halted || stopped) return;
    clearTimeout(netTimer);
    netTimer = setTimeout(talk, ms);
  }
  async function talk() {
    // What the Net has due, a request at a time; what its answers wrote is
    // stored by a pass (FILES) as a step's writes are.
    if (netBusy) return;
    netBusy = true;
    try {
      for (let i = 0; i < 20 && !halted && !stopped; i++) {
        const req = net.next(ticks());
        if (!req) break;
        const [method, path, token, body] = JSON.parse(req);
        const [status, text] = await send(method, path, token, body);
        if (halted || stopped) return;
        if (net.answer(status, text, ticks())) pump();
        const said = net.said();
        if (said !== netSaid) say(netSaid = said);
        if (!net.joining()) {
          try { sessionStorage.removeItem(JOIN_KEY); } catch { /* (none) */ }
        }
        if (status === 0) break;
      }
    } finally {
      netBusy = false;
      netSoon(NET_MS);
    }
  }
  const code = joinCode();
  if (code !== null) board.net_join(code);
  netOn = code !== null || !!board.net_joined();
  netSoon(0);
  const redraw = () => (drawn === null ? show(FS.readFile("/frame"), false) : draw(drawn.ram, drawn.dark));
  window.addEventListener("resize", () => fit(redraw));
  keepAwake();
  fit(redraw);
  pump();
}

async function keepAwake() {
  // The screen stays on while the page is shown (Wake Lock, where the browser has it).
  if (!("wakeLock" in navigator)) return;
  const take = async () => {
    if (document.visibilityState !== "visible") return;
    try { await navigator.wakeLock.request("screen"); } catch { /* (battery saver, permissions) */ }
  };
  document.addEventListener("visibilitychange", take);
  take();
}

async function main() {
  try {
    const device = await boot();
    window.bower = device;        // (the tests read the device through this)
    // The service worker once the device is up: its copies of the files then
    // come from the browser's HTTP cache, not a second download competing
    // with the first start's.
    if ("serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register("sw.js").catch(() => {});
    }
    let said = null;
    try { said = sessionStorage.getItem(SAID_KEY); sessionStorage.removeItem(SAID_KEY); } catch { /* (none) */ }
    say(said || (window.isSecureContext ? "" : "Plain HTTP: playing and storage work; starting offline and " +
                                                "installing need HTTPS (or localhost)."));
    run(device);
  } catch (e) {
    say(`Bower could not start: ${e && e.message ? e.message.split("\n").slice(-2).join(" ") : e}`);
    throw e;
  }
}

main();
