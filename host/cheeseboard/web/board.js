// The web board's page: the firmware on MicroPython's WebAssembly port (vm.mjs), the board
// drawn by cheeseboard.picture (its SVG, recoloured frame by frame), the five buttons on
// screen, on the keyboard and by touch, the console, and the board's flash kept in the
// browser's storage (localStorage), so that a reload resumes the game like a power cut.
import { BrowserFlash, fromBase64, toBase64 } from "./flash.mjs";
import { download, savePng, svgText } from "./save.mjs";
import { frameRequest, parseReply } from "./vm.mjs";
import { seen, VISIONS } from "./vision.mjs";
import { stepWords } from "./replay.mjs";

const TICK_MS = 10; // the firmware's own main-loop period (cheesefw/app.py)
// A press lasts at least this long and the button stays up this long after it, so that the
// firmware's 20 ms debounce sees every edge (the terminal view plays keys the same way).
const PRESS_MS = 70;
const RELEASE_MS = 50;
const KEYS = { // the terminal view's keys (host/cheeseboard/sim/view.py)
  ArrowLeft: "prev", h: "prev", ",": "prev", ArrowRight: "next", l: "next", ".": "next",
  Enter: "ok", Backspace: "back", b: "back", " ": "roll", r: "roll",
};
const BUTTONS = ["prev", "next", "ok", "back", "roll"];

const $ = (id) => document.getElementById(id);
const me = Math.random().toString(36).slice(2); // this tab, for the other tabs
let profileName = null;
let flash = null; // the board's own files in localStorage (flash.mjs)
let board = null; // vm.mjs's board while it runs
let running = false;
// Each power-on is a generation with its own VM in its own frame (vm.html); powering off
// removes the frame, and whatever an older generation left waiting (a tick, a reply, the
// rest of a boot) sees that it is no longer current and stops there.
let generation = 0;
let vmFrame = null;
let game = null; // the overlay drawn
let pixels = []; // the picture's <circle> per pixel
let lastFrame = "";
let vision = "normal"; // the board drawn as a player with this colour vision sees it
let lastState = 0;
let nextId = 1;
const waiting = new Map(); // request id -> [resolve, reject]
let consoleLine = "";

const ownerKey = () => `cheeseboard:${profileName}:owner`;

// -- one tab owns a board ------------------------------------------------------------------
// The Web Locks API tells a second tab that a first one is open (the lock goes with the tab);
// the owner key in storage makes a tab that was taken over stop before it writes again.

function lockName() { return `cheeseboard:${profileName}`; }

function acquire(steal) {
  return new Promise((resolve) => {
    const opts = steal ? { steal: true } : { ifAvailable: true };
    navigator.locks.request(lockName(), opts, (lock) => {
      resolve(!!lock);
      return lock ? new Promise(() => {}) : null; // held as long as the tab lives
    }).catch(() => lost()); // stolen by another tab
  });
}

function owned() { return localStorage.getItem(ownerKey()) === me; }

function lost() {
  if (!running && !board) return;
  stop();
  banner("Another tab took this board over; this tab stopped (the board's flash is the same "
         + "in both).", "Take it back", takeOver);
  status("stopped: open in another tab");
}

async function takeOver() {
  await acquire(true);
  powerOn();
}

// -- the console ---------------------------------------------------------------------------

function consoleWrite(text) {
  const pre = $("console");
  pre.textContent += text;
  if (pre.textContent.length > 60000) pre.textContent = pre.textContent.slice(-40000);
  pre.scrollTop = pre.scrollHeight;
}

function onOutput(text) {
  consoleWrite(text);
  consoleLine += text;
  let nl;
  while ((nl = consoleLine.indexOf("\n")) >= 0) {
    const reply = parseReply(consoleLine.slice(0, nl));
    consoleLine = consoleLine.slice(nl + 1);
    if (reply && waiting.has(reply.id)) {
      waiting.get(reply.id)[0](reply);
      waiting.delete(reply.id);
    }
  }
}

// A protocol request to the firmware, as a host sends it over USB; resolves to the reply.
function request(cmd, args = {}) {
  if (!board) return Promise.reject(new Error(`${cmd}: the board is off`));
  const id = nextId++;
  const line = frameRequest({ id, cmd, ...args });
  consoleWrite(line);
  board.feed(line);
  return new Promise((resolve, reject) => {
    waiting.set(id, [resolve, reject]);
    setTimeout(() => {
      if (waiting.delete(id)) reject(new Error(`no reply to ${cmd} within 5 s`));
    }, 5000);
  });
}

async function hello() {
  const r = await request("hello");
  if (!running) return;
  $("hello").textContent = `hello: firmware ${r.firmware} on ${r.runtime} (${r.platform}), `
    + `profile ${r.profile}, build ${r.slot ? r.slot.build : "?"}`;
  window.cheeseboard.hello = r;
}

// -- buttons: on screen, keyboard, touch ---------------------------------------------------

// Each button's presses wait in a queue of [when, level]; a level is put on the pin once it
// is due and the level before has been seen by MIN_TICKS ticks (a tab in the background ticks
// seldom, and the debouncer must see each level twice, 20 ms apart, to count it).
const MIN_TICKS = 3;
const pins = Object.fromEntries(BUTTONS.map((b) => [b, { queue: [], pressedAt: 0, freeAt: 0,
                                                        ticks: MIN_TICKS }]));

function down(name) {
  const pin = pins[name];
  if (pin.freeAt === Infinity) return; // already down
  const at = Math.max(performance.now(), pin.freeAt);
  pin.queue.push([at, 0]);
  pin.pressedAt = at;
  pin.freeAt = Infinity; // until it is released
  document.querySelector(`[data-button=${name}]`).classList.add("down");
}

function up(name) {
  const pin = pins[name];
  if (pin.freeAt !== Infinity) return; // not down
  const at = Math.max(performance.now(), pin.pressedAt + PRESS_MS);
  pin.queue.push([at, 1]);
  pin.freeAt = at + RELEASE_MS;
  document.querySelector(`[data-button=${name}]`).classList.remove("down");
}

function applyPins(now) {
  for (const name of BUTTONS) {
    const pin = pins[name];
    pin.ticks++;
    if (pin.queue.length && pin.queue[0][0] <= now && pin.ticks >= MIN_TICKS) {
      board.setPin(name, pin.queue.shift()[1]);
      pin.ticks = 0;
    }
  }
}

function wireButtons() {
  for (const el of document.querySelectorAll("[data-button]")) {
    const name = el.dataset.button;
    el.addEventListener("pointerdown", (e) => { e.preventDefault(); down(name); });
    for (const ev of ["pointerup", "pointercancel", "pointerleave"]) {
      el.addEventListener(ev, () => up(name));
    }
    el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is a hold
  }
  document.addEventListener("keydown", (e) => {
    const name = KEYS[e.key];
    if (!name || e.target.tagName === "INPUT") return;
    e.preventDefault();
    if (!e.repeat) down(name);
  });
  document.addEventListener("keyup", (e) => {
    const name = KEYS[e.key];
    if (name && e.target.tagName !== "INPUT") up(name);
  });
}

// -- the picture ---------------------------------------------------------------------------

// The overlay of a game; resolves once it is drawn. Asked for the overlay already loading, it
// waits for that load too: a frame painted before the load ends would go with the old picture.
let overlayDrawn = Promise.resolve();

function showGame(name) {
  if (name !== game) {
    game = name;
    overlayDrawn = drawOverlay(name);
  }
  return overlayDrawn;
}

async function drawOverlay(name) {
  const svg = await (await fetch(`pictures/${profileName}-${name}.svg`)).text();
  if (game !== name) return; // another overlay was asked for meanwhile: the later one wins
  $("picture").innerHTML = svg;
  pixels = [];
  for (const c of $("picture").querySelectorAll("circle.px")) pixels[+c.id.slice(3)] = c;
  lastFrame = "";
}

function paint(hex) {
  for (let i = 0; i < pixels.length; i++) {
    const j = 6 * i;
    if (j + 6 > hex.length) break;
    const rgb = seen([0, 2, 4].map((k) => parseInt(hex.slice(j + k, j + k + 2), 16)), vision);
    pixels[i].setAttribute("fill", `rgb(${rgb.join(",")})`);
  }
}

function keysNow(s) {
  if (s.mode === "menu") {
    return `menu (${s.step}: ${s.value}): \u2190/\u2192 the value on offer \u00b7 Enter take it`
      + " \u00b7 Backspace the step before \u00b7 Space colour-vision palette on/off";
  }
  const hold = " \u00b7 \u2190 held: take back the last move \u00b7 Backspace held: abandon the game";
  if (s.wait === "decide" && s.private) { // Enter alone is refused: nobody sees the hand yet
    return "your hand is hidden: hold Space (roll) down to see it (the card on offer shows "
      + "pale where it would lie, the die's pips say which card), \u2190/\u2192 while holding "
      + "walk the cards and places, Enter lays the one shown" + hold;
  }
  return ({
    decide: "\u2190/\u2192 the move on offer (blinking white) \u00b7 Enter play it" + hold,
    react: "\u2190/\u2192 your move on offer \u00b7 Enter play it \u00b7 Backspace never mind",
    roll: "Space: roll the dice" + hold,
    rolling: "the dice are rolling\u2026 \u00b7 \u2190 held: call it off, take back the last move",
    window: "others may react: Enter, then choose your seat" + hold,
    seat: "\u2190/\u2192 your seat \u00b7 Enter that's me \u00b7 Backspace never mind",
    bot: "the board is playing its seat\u2026 \u00b7 \u2190 held: take back your last move",
    settling: "the board is settling the last move\u2026",
    over: "game over: Enter for the menu",
  })[s.wait] || s.wait;
}

function showState(s) {
  $("keys").textContent = "keys now: " + keysNow(s);
  // The words are the firmware's own (cheesefw.words), as the terminal view shows them
  $("state").textContent = board ? board.words(s) : "";
}

// -- the board's life ----------------------------------------------------------------------

function status(text, error) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!error);
}

function banner(text, action, onAction, error) {
  $("banner").hidden = false;
  $("banner").classList.toggle("error", !!error);
  $("banner-text").textContent = text;
  $("banner-action").textContent = action;
  $("banner-action").onclick = onAction;
}

// The board off: its VM gone with its frame, the requests it had not answered refused.
function stop() {
  generation++;
  running = false;
  board = null;
  window.cheeseboard.running = false;
  window.cheeseboard.hello = null;
  if (vmFrame) vmFrame.remove();
  vmFrame = null;
  consoleLine = "";
  for (const [, [, reject]] of waiting) reject(new Error("the board was switched off"));
  waiting.clear();
}

// A fresh frame with a fresh VM in it (vm.html); resolves to its startBoard(files, output).
function vmRealm() {
  return new Promise((resolve, reject) => {
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.src = "vm.html";
    frame.onload = () => (frame.contentWindow.startBoard ? resolve(frame.contentWindow.startBoard)
      : reject(new Error("vm.html did not load the VM")));
    frame.onerror = () => reject(new Error("vm.html did not load"));
    vmFrame = frame;
    document.body.append(frame);
  });
}

function crashed(e) {
  stop();
  consoleWrite("\n" + (e && e.message ? e.message : String(e)) + "\n");
  status("the firmware stopped with an error", true);
  banner("The firmware raised an error: its traceback is in the console.", "Restart the board",
         () => powerOn(), true);
  window.cheeseboard.crashed = true;
}

async function powerOn() {
  stop();
  const mine = generation;
  const current = () => mine === generation; // false once a later power-on began
  $("banner").hidden = true;
  window.cheeseboard.crashed = false;
  localStorage.setItem(ownerKey(), me);
  status("starting the board\u2026");
  let started;
  try {
    const flashed = await (await fetch(`flash/${profileName}.json`)).json();
    const startBoard = await vmRealm();
    if (!current()) return;
    const files = {};
    for (const [path, b64] of Object.entries(flashed.files)) files[path] = fromBase64(b64);
    const kept = flash.files();
    Object.assign(files, kept); // what the firmware wrote last time: journal, synced tables
    consoleWrite(`-- power on: firmware build ${flashed.build}, ${Object.keys(kept).length} of `
                 + "the board's own files kept from last time\n");
    started = await startBoard(files, (text) => { if (current()) onOutput(text); });
  } catch (e) {
    if (current()) crashed(e);
    return;
  }
  if (!current()) return;
  board = started;
  if (!board.app) {
    status("the board stopped: its profile was refused (see the console)", true);
    return;
  }
  running = true;
  window.cheeseboard.running = true;
  await showGame(board.state().game || profiles().games[0]);
  if (!current()) return;
  status(`running: ${profileName}`);
  setTimeout(() => loop(mine), 0);
  hello().catch((e) => { if (current()) consoleWrite(`-- ${e.message}\n`); });
}

function loop(mine) {
  if (!running || mine !== generation) return;
  if (!owned()) { lost(); return; }
  const b = board;
  let painted = false;
  try {
    applyPins(performance.now());
    painted = b.tick();
    flash.keep(b.changed());
    const now = performance.now();
    if (now - lastState > 100) {
      lastState = now;
      const s = b.state();
      window.cheeseboard.lastState = s;
      if (!replay) showState(s);
      if (s.game && s.game !== game && !replay) showGame(s.game);
    }
  } catch (e) {
    crashed(e);
    return;
  }
  if ((painted || !lastFrame) && pixels.length && b.frameHex() && !replay) {
    lastFrame = b.frameHex();
    paint(lastFrame);
  }
  setTimeout(() => loop(mine), TICK_MS);
}

// -- replay: a game's log step by step on the picture (replay.mjs), the board running on ----

let replay = null; // {steps, at, timer} while the picture shows a replay

// The host's code that runs on MicroPython (the replay, an upload's check), in a VM of its own,
// gone with its frame once call(the frame's window, files) is done: files are this board's
// flash (the firmware image, the board's own files on top) and the site's files named.
async function inVmOfItsOwn(names, call) {
  const flashed = await (await fetch(`flash/${profileName}.json`)).json();
  const files = {};
  for (const [path, b64] of Object.entries(flashed.files)) files[path] = fromBase64(b64);
  Object.assign(files, flash.files());
  for (const name of names) {
    files[name] = new Uint8Array(await (await fetch(name)).arrayBuffer());
  }
  const frame = document.createElement("iframe");
  frame.hidden = true;
  frame.src = "vm.html";
  await new Promise((resolve) => { frame.onload = resolve; document.body.append(frame); });
  try {
    return await call(frame.contentWindow, files);
  } finally {
    frame.remove();
  }
}

async function startReplay(text, own) {
  $("replay-words").textContent = "making the replay\u2026";
  const made = await inVmOfItsOwn(["replay/positions.py", "replay/logfile.py"],
                                  (vm, files) => vm.replaySteps(files, text, own));
  if (made.error) {
    $("replay-words").textContent = made.error;
    return;
  }
  stopReplay();
  replay = { steps: made.steps, at: 0, timer: null, hiddenFrom: made.hidden_from };
  await showGame(made.game);
  $("replay-controls").hidden = false;
  $("replay-step").max = made.steps.length - 1;
  showStep(0);
}

function showStep(i) {
  if (!replay) return;
  const steps = replay.steps;
  replay.at = Math.max(0, Math.min(steps.length - 1, i));
  paint(steps[replay.at].frame);
  lastFrame = steps[replay.at].frame;
  $("replay-step").value = replay.at;
  let words = stepWords(steps, replay.at);
  if (replay.at === steps.length - 1 && replay.hiddenFrom !== null) {
    words += `; the game runs on: the log hides its move ${replay.hiddenFrom} until it is over`;
  }
  $("replay-words").textContent = words;
  showState(steps[replay.at].state);
  $("keys").textContent = "replay: the buttons above step through it (the board's own buttons "
    + "still play the board underneath); \"back to the board\" shows the board again";
  window.cheeseboard.replay = { at: replay.at, count: steps.length, words };
}

function playReplay() {
  if (!replay) return;
  if (replay.timer) {
    clearInterval(replay.timer);
    replay.timer = null;
  } else {
    replay.timer = setInterval(() => {
      if (replay.at >= replay.steps.length - 1) playReplay();
      else showStep(replay.at + 1);
    }, +$("replay-speed").value);
  }
  $("replay-play").textContent = replay.timer ? "pause" : "play on";
}

function stopReplay() {
  if (replay && replay.timer) clearInterval(replay.timer);
  replay = null;
  window.cheeseboard.replay = null;
  $("replay-controls").hidden = true;
  $("replay-play").textContent = "play on";
  const live = board ? board.state() : null;
  game = null; // the board's own overlay, and its frame with the next tick
  showGame((live && live.game) || profiles().games[0]);
}

function wireReplay() {
  const own = () => {
    const journal = flash.files()["journal.txt"];
    if (!journal) {
      $("replay-words").textContent = "no game on this board (a game's journal is kept while it is played)";
      return;
    }
    startReplay(new TextDecoder().decode(journal), true).catch((e) => {
      $("replay-words").textContent = String(e.message || e);
    });
  };
  const dropped = (file) => file.text().then((text) => startReplay(text, false)).catch((e) => {
    $("replay-words").textContent = String(e.message || e);
  });
  $("replay-own").onclick = own;
  $("replay-file").onchange = (e) => { if (e.target.files[0]) dropped(e.target.files[0]); };
  $("picture").addEventListener("dragover", (e) => e.preventDefault());
  $("picture").addEventListener("drop", (e) => {
    e.preventDefault();
    if (e.dataTransfer.files[0]) dropped(e.dataTransfer.files[0]);
  });
  $("replay-first").onclick = () => showStep(0);
  $("replay-back").onclick = () => showStep(replay.at - 1);
  $("replay-next").onclick = () => showStep(replay.at + 1);
  $("replay-last").onclick = () => showStep(replay.steps.length - 1);
  $("replay-step").onchange = () => showStep(+$("replay-step").value);
  $("replay-play").onclick = playReplay;
  $("replay-speed").onchange = () => { if (replay && replay.timer) { playReplay(); playReplay(); } };
  $("replay-close").onclick = () => { stopReplay(); $("replay-words").textContent = ""; };
}

// -- rule tables: sent as `cheeseboard sync` sends them (host/cheeseboard/rules/sync.py) --------

const TEXT_CHUNK = 400; // printable ASCII, escaped: still within the protocol's 1024-byte line
const DATA_CHUNK = 300; // bytes a put, as base64 (lines are ASCII), as sync sends them

// The put requests' arguments for a table's exact bytes: its text when it is printable ASCII,
// else base64, so that what the board stores (and hashes) is the file byte for byte.
function putChunks(bytes) {
  const ascii = bytes.every((b) => (b >= 32 && b <= 126) || b === 9 || b === 10 || b === 13);
  const chunks = [];
  if (ascii) {
    const text = new TextDecoder().decode(bytes);
    for (let offset = 0; offset < text.length || offset === 0; offset += TEXT_CHUNK) {
      chunks.push({ offset, text: text.slice(offset, offset + TEXT_CHUNK) });
    }
  } else {
    for (let offset = 0; offset < bytes.length || offset === 0; offset += DATA_CHUNK) {
      chunks.push({ offset, data: toBase64(bytes.subarray(offset, offset + DATA_CHUNK)) });
    }
  }
  return chunks;
}

// A table file checked as `cheeseboard rules check` begins (tables.mjs: its bounds and JSON, and
// the game it is for, by the host's own rule), then sent under its game's name, as `cheeseboard
// sync` sends it; the board's commit checks the rest.
async function sendTable(file) {
  const result = $("table-result");
  const bytes = new Uint8Array(await file.arrayBuffer());
  result.className = "";
  result.textContent = `checking ${file.name}\u2026`;
  const checked = await inVmOfItsOwn(["host/naming.py"],
                                     (vm, files) => vm.checkTable(files, file.name, bytes));
  const name = checked.game;
  if (checked.refused.length) {
    result.className = "refused";
    result.textContent = `${name}: refused: ${checked.refused.join("; ")}`;
    return;
  }
  result.textContent = `sending ${name}\u2026`;
  let reply;
  try {
    for (const chunk of putChunks(bytes)) {
      reply = await request("put", { name, ...chunk });
      if (!reply.ok) break;
    }
    if (reply.ok) {
      const digest = await crypto.subtle.digest("SHA-256", bytes);
      const sha256 = Array.from(new Uint8Array(digest), (x) => x.toString(16).padStart(2, "0"))
        .join("");
      reply = await request("commit", { name, sha256 });
    }
  } catch (e) {
    reply = { ok: false, error: e.message };
  }
  result.className = reply.ok ? "" : "refused";
  result.textContent = reply.ok ? `${name}: taken (applies ${reply.applies})`
    : `${name}: refused: ${reply.error}`;
}

// -- start ---------------------------------------------------------------------------------

let site = null;
function profiles() { return site.profiles[profileName]; }

async function main() {
  // For people at the browser's console, and for the tests: read-only views of the board.
  window.cheeseboard = { running: false, crashed: false, request: (c, a) => request(c, a),
                         frameHex: () => (board ? board.frameHex() : null),
                         state: () => (board ? board.state() : null),
                         idle: () => BUTTONS.every((b) => !pins[b].queue.length
                                                   && pins[b].freeAt !== Infinity) };
  site = await (await fetch("profiles.json")).json();
  // The board asked for in the address, else the one chosen last time, else the site's own.
  const asked = new URLSearchParams(location.search).get("profile");
  const last = localStorage.getItem("cheeseboard:profile");
  profileName = asked in site.profiles ? asked : last in site.profiles ? last : site.default;
  localStorage.setItem("cheeseboard:profile", profileName);
  flash = new BrowserFlash(profileName);
  const select = $("profile");
  for (const name of Object.keys(site.profiles)) select.add(new Option(name, name));
  select.value = profileName;
  select.onchange = () => { location.search = "?profile=" + select.value; };
  window.cheeseboard.replay = null;
  const visions = $("vision");
  for (const [name, words] of Object.entries(VISIONS)) visions.add(new Option(words, name));
  visions.onchange = () => { vision = visions.value; if (lastFrame) paint(lastFrame); };
  wireButtons();
  wireReplay();
  $("restart").onclick = () => powerOn();
  $("forget").onclick = () => { flash.forget(); powerOn(); };
  const picture = () => $("picture").querySelector("svg");
  $("save-svg").onclick = () => download(new Blob([svgText(picture())], { type: "image/svg+xml" }),
                                         `${profileName}-${game}.svg`);
  $("save-png").onclick = () => savePng(picture(), `${profileName}-${game}.png`);
  $("table-file").onchange = (e) => {
    if (e.target.files[0] && board) sendTable(e.target.files[0]).catch((x) => consoleWrite(`-- ${x}\n`));
  };
  $("console-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("console-input").value.trim();
    if (!text || !board) return;
    let req;
    try { req = text.startsWith("{") ? JSON.parse(text) : { cmd: text }; } catch (x) {
      consoleWrite(`-- not JSON: ${x.message}\n`);
      return;
    }
    const { cmd, ...args } = req;
    request(cmd, args).catch((x) => consoleWrite(`-- ${x.message}\n`));
    $("console-input").value = "";
  };
  window.addEventListener("storage", (e) => {
    if (e.key === ownerKey() && e.newValue !== me && running) lost();
  });
  if (!(await acquire(false))) {
    status("open in another tab");
    banner("This board is open in another tab: this tab leaves it alone.", "Take it over here",
           takeOver);
    return;
  }
  powerOn();
}

main();
