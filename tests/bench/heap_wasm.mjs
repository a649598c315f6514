// Run by bench_heap.py in Node: the flashed image on MicroPython's WebAssembly port (32-bit),
// booted as the web board boots it (host/cheeseboard/web/vm.mjs), then one game played with
// heap_drive, the live heap read from JS after each step.
//   argv: FLASH-JSON GAME OPTIONS-JSON [ROMFS-IMAGE]
// With a ROMFS image the firmware's code is read from it in place (mounted at /rom), as on a
// board built with a ROMFS partition; the flash holds the rest. Its first boot, which checks
// the profile and the tables and stamps them, runs in a VM of its own before the measured one.
import fs from "node:fs";
import { loadMicroPython } from "../../node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs";
import { boot } from "../../host/cheeseboard/web/vm.mjs";

const [flashPath, game, options, romfsPath] = process.argv.slice(2);
if (flashPath === "port-modules") {  // what the port's own Python modules would cost the board
  console.log(JSON.stringify(await portModules()));
  process.exit(0);
}
const flash = JSON.parse(fs.readFileSync(flashPath));
const files = {};
for (const [path, b64] of Object.entries(flash.files)) files[path] = Buffer.from(b64, "base64");
const vm = romfsPath ? { romfs: new Uint8Array(fs.readFileSync(romfsPath)) } : {};
let console_ = "";
const output = (text) => { console_ += text; };
if (romfsPath) {
  const first = await boot(loadMicroPython, files, output, vm);
  if (!first.app) throw new Error("the board did not start: " + console_);
  first.mp.runPython("from cheesefw.first_boot import check_every_table\ncheck_every_table(_app.board)");
  files["checked.json"] = first.mp.FS.readFile("/checked.json");
}
const board = await boot(loadMicroPython, files, output, vm, true);  // as a Pico: the loader stays
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
// The interned names: MicroPython keeps them in tables that double as they fill (20, 40, ...
// 320, 640 entries), so the 621st costs a 640-entry table at once.
console_ = "";
board.mp.runPython("import micropython\nmicropython.qstr_info(1)");
const names = Number(/n_qstr=(\d+)/.exec(console_)[1]);
console.log(JSON.stringify({ boot: bootHeap, start, peak, names, moves: drive.moves(),
  steps: drive.steps, interned: internedInOrder(console_, names) }));

// qstr_info(1)'s names in the order they were interned. It prints the newest table first, each
// table's names oldest first; the tables hold 20, 40, 80, ... names, each full but the last.
function internedInOrder(text, count) {
  // (a name may hold a newline: split where the next line starts a name)
  const lines = text.replace(/\r\n/g, "\n");
  const listed = lines.slice(lines.indexOf("\nQ(") + 3).replace(/\)\n$/, "").split(")\nQ(");
  if (listed.length !== count) throw new Error("qstr_info(1) listed " + listed.length + " of " + count);
  const sizes = [];
  for (let size = 20, left = count; left > 0; left -= size, size *= 2) sizes.push(Math.min(size, left));
  const pools = Number(/n_pool=(\d+)/.exec(text)[1]);
  if (pools !== sizes.length) throw new Error(count + " names in " + pools + " tables, not " + sizes.length);
  const tables = [];
  let at = 0;
  for (const size of sizes.slice().reverse()) { tables.unshift(listed.slice(at, at + size)); at += size; }
  return tables.flat();
}

// The heap and names that importing binascii, os and time by their plain names costs on this
// port (micropython-lib's Python extensions, frozen into its pyscript build), against their
// built-in modules (the u-prefixed names), each in a fresh VM: what the web board's boot saves.
async function portModules() {
  const measure = async (names) => {
    let out = "";
    const mp = await loadMicroPython({ stdout: (l) => { out += l + "\n"; }, linebuffer: true });
    mp.runPython(`import gc, micropython
gc.collect()
_before = gc.mem_alloc()
${names.map((n) => "import " + n).join("\n")}
gc.collect()
print("heap", gc.mem_alloc() - _before)
micropython.qstr_info()`);
    return { heap: Number(/heap (\d+)/.exec(out)[1]), names: Number(/n_qstr=(\d+)/.exec(out)[1]) };
  };
  return { plain: await measure(["binascii", "os", "time"]),
    builtin: await measure(["ubinascii", "uos", "utime"]) };
}
