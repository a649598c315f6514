// Run by bench_replay.py in Node: the web board's replay (host/cheeseboard/web/replay.mjs, the
// host's replay code on MicroPython's WebAssembly port, in a VM of its own beside the flashed
// image) of each journal named, timed from the VM's start to its steps; prints one JSON line
// a journal: {seconds, steps} or {error}.
//   argv: FLASH-JSON JOURNAL...
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "../../node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs";
import { replaySteps } from "../../host/cheeseboard/web/replay.mjs";

const [flashPath, ...journals] = process.argv.slice(2);
const flash = JSON.parse(fs.readFileSync(flashPath));
const files = {};
for (const [name, b64] of Object.entries(flash.files)) files[name] = Buffer.from(b64, "base64");
const replay = path.resolve(import.meta.dirname, "../../host/cheeseboard/replay");
for (const name of ["positions.py", "logfile.py"]) {
  files[`replay/${name}`] = fs.readFileSync(path.join(replay, name));
}
for (const journal of journals) {
  const text = fs.readFileSync(journal, "utf8");
  const start = performance.now();
  const made = await replaySteps(loadMicroPython, files, text, false);
  const seconds = (performance.now() - start) / 1000;
  console.log(JSON.stringify(made.error ? { error: made.error } : { seconds, steps: made.steps.length }));
}
