// Run a Python script on MicroPython's WebAssembly port (32-bit, the web board's VM) in Node,
// with a folder's files at the root of its filesystem; print what the script prints.
//   argv: FOLDER SCRIPT
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "../../node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs";

const [folder, script] = process.argv.slice(2);
let out = "";
const mp = await loadMicroPython({ stdout: (line) => { out += line + "\n"; }, linebuffer: true });
const copy = (from, to) => {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) {
      mp.FS.mkdir(to + "/" + entry.name);
      copy(source, to + "/" + entry.name);
    } else {
      mp.FS.writeFile(to + "/" + entry.name, fs.readFileSync(source));
    }
  }
};
copy(folder, "");
mp.runPython(fs.readFileSync(script, "utf8"));
process.stdout.write(out);
