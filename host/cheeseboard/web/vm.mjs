// The firmware on MicroPython's WebAssembly port: boot it from a flash's files, tick it.
// Shared by the page (board.js) and the heap benchmark in Node (tests/bench/heap_wasm.mjs),
// so both run the board the same way: boot.py, then cheesefw.app.start(), then App.tick()
// from JS, which main.py's loop does on a board.

// The pyscript build of the WebAssembly port freezes micropython-lib's Python extensions of
// binascii, os and time (with os come collections and os.path); importing them costs the heap
// some 9 KB and 48 interned names (bench_heap.py measures them), where a Pico has these
// modules in C alone. The web board is a Pico: its firmware gets the built-in modules, which
// the u-prefixed names reach.
const BUILTINS = ["binascii", "os", "time"];

// What a board does first, in a VM's __main__: the built-in modules under their plain names,
// then boot.py (the firmware's slot on the import path). The board's VM starts so, and so do
// the VMs of its own that the replay and a table's check run in.
export const BOARD_PRELUDE = `
import sys
for _name in ${JSON.stringify(BUILTINS)}:
    sys.modules[_name] = __import__("u" + _name)
del _name
import os, json
os.chdir("/")
exec(open("boot.py").read())
`;

// What a board does before its main loop; start: the lines that make the App, _app.
const bootScript = (start) => `${BOARD_PRELUDE}from cheesefw import app as _firmware
${start}
def _state():
    return json.dumps(_app.scene.describe())
`;

// The page starts the App as main.py would.
const BOOT = bootScript("_app = _firmware.start()");

// As a Pico boots: main.py's loader, compiled from source and resident for as long as the
// firmware runs (its functions are the App's watchdog food and health check), with the
// loader's call into the firmware's endless loop stopped at the App that it starts, which JS
// then ticks. For the heap benchmark: what a Pico's heap holds beside the firmware.
const BOOT_AS_PICO = bootScript(`
def _start_only(up=None, feed=None):
    global _app
    _app = _firmware.start(up is not None, feed)
_firmware.main = _start_only
exec(open("main.py").read())`);

// The host's code that runs on MicroPython, in a quiet VM of its own: files written, the script
// run, then its function `name` called with args; the function's answer is JSON.
export async function answerInVm(loadMicroPython, heapsize, files, script, name, ...args) {
  const mp = await loadMicroPython({ heapsize, stdout: () => {}, stderr: () => {} });
  writeFiles(mp.FS, files);
  mp.runPython(script);
  return JSON.parse(mp.globals.get(name)(...args));
}

// files ({path from the root: Uint8Array}) into a VM's filesystem, their folders made.
export function writeFiles(FS, files) {
  for (const [path, data] of Object.entries(files)) {
    let dir = "";
    for (const part of path.split("/").slice(0, -1)) {
      dir += "/" + part;
      try { FS.mkdir(dir); } catch (e) { /* there already */ }
    }
    FS.writeFile("/" + path, data);
  }
}

// files: {path from the root of the flash: Uint8Array}. output(text): the console's bytes,
// as text (print()s and protocol replies alike). Returns the board, or throws the Python
// error (a PythonError whose message is the traceback).
// options: loadMicroPython's; asPico: boot through main.py's loader (BOOT_AS_PICO).
export async function boot(loadMicroPython, files, output, options = {}, asPico = false) {
  const mp = await loadMicroPython({
    stdout: (line) => output(line + "\n"),
    stderr: (line) => output(line + "\n"),
    linebuffer: true,
    ...options,
  });
  writeFiles(mp.FS, files);
  mp.runPython(asPico ? BOOT_AS_PICO : BOOT);
  const app = mp.globals.get("_app");
  const state = mp.globals.get("_state");
  const board = app ? app.board : null;
  let frame = "";
  let changed = [];
  let words = null;
  return {
    mp,
    app,   // null: the profile was refused (its faults are on the console)
    board,
    // One pass of the firmware's main loop; true when it wrote a new frame.
    tick() {
      app.tick();
      const news = board.news();
      if (!news) return false;
      const [hex, out, names] = news.split("\x1e");
      if (out) output(out);
      if (names) changed.push(...names.split("\n"));
      if (hex) frame = hex;
      return !!hex;
    },
    state() { return JSON.parse(state()); },
    // A state (this board's, or a replay's step) in words: the firmware's own (cheesefw.words,
    // which the terminal view shows too), imported at the first call: a board that is only
    // played never holds it.
    words(s) {
      words = words || mp.pyimport("cheesefw.words");
      return words.text(JSON.stringify(s));
    },
    frameHex() { return frame; },
    setPin(name, level) { board.set_pin(name, level); },
    feed(text) { board.feed(text); },
    // The files the firmware changed since the last call: [[path, bytes or null (gone)]].
    changed() {
      const names = [...new Set(changed)];
      changed = [];
      return names.map((name) => {
        try { return [name, mp.FS.readFile("/" + name)]; } catch (e) { return [name, null]; }
      });
    },
  };
}

// One protocol request line (docs/protocol.md): "@<crc32 of the JSON> <JSON>\n".
export function frameRequest(obj) {
  const text = JSON.stringify(obj);
  return "@" + crc32(new TextEncoder().encode(text)).toString(16).padStart(8, "0") + " " + text + "\n";
}

let table = null;
function crc32(bytes) {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = table[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// A reply line's object, or null when the line is not a protocol line.
export function parseReply(line) {
  const m = /^@([0-9a-f]{8}) (.*)$/.exec(line.trim());
  if (!m) return null;
  if (crc32(new TextEncoder().encode(m[2])).toString(16).padStart(8, "0") !== m[1]) return null;
  try { return JSON.parse(m[2]); } catch (e) { return null; }
}
