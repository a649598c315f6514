// Run by bench_heap.py in Node: the flashed image on MicroPython's WebAssembly port (32-bit),
// booted as the web board boots it (host/cheeseboard/web/vm.mjs), then one game played with
// heap_drive, the live heap read from JS after each step.   argv: FLASH-JSON GAME OPTIONS-JSON
import fs from "node:fs";
import { loadMicroPython } from "../../node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs";
import { boot } from "../../host/cheeseboard/web/vm.mjs";

const [flashPath, game, options] = process.argv.slice(2);
const flash = JSON.parse(fs.readFileSync(flashPath));
const files = {};
for (const [path, b64] of Object.entries(flash.files)) files[path] = Buffer.from(b64, "base64");
let console_ = "";
const board = await boot(loadMicroPython, files, (text) => { console_ += text; });
if (!board.app) throw new Error("the board did not start: " + console_);
// Each attribute read from JS holds a Python object until JS's own collector lets it go:
// take every callable once, so that the figures are the firmware's heap alone.
const gc = board.mp.pyimport("gc");
const collect = gc.collect;
const memAlloc = gc.mem_alloc;
const live = () => { collect(); return memAlloc(); };
const bootHeap = live();
board.mp.globals.set("_options", options);
board.mp.runPython(`import json, heap_drive
_drive = heap_drive.Drive(_app, ${JSON.stringify(game)}, json.loads(_options), 12345)`);
const drive = board.mp.globals.get("_drive");
const step = drive.step;
const start = live();
let peak = start;
while (step()) peak = Math.max(peak, live());
console.log(JSON.stringify({ boot: bootHeap, start, peak, moves: drive.moves(), steps: drive.steps }));
