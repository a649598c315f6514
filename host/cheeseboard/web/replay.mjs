// The web board's replay: a game's log turned into its steps by the host's own replay code
// (host/cheeseboard/replay/positions.py and logfile.py, which run on MicroPython as well) in a
// VM of its own, beside the board's firmware image: the firmware's Play takes the log's lines in
// turn, as its resume does, and paints each step, as `cheeseboard replay` does in the terminal.

import { BOARD_PRELUDE, answerInVm } from "./vm.mjs";

// The VM's side: the board's start (the firmware's slot on the import path), then the
// replay over the log's text; its answer is JSON: {steps: [...]} or {error: "one line"}.
const SCRIPT = `${BOARD_PRELUDE}import binascii
sys.path.append("/replay")
import positions, logfile
from cheesefw.home import HOME, rules_files

def _read(names):
    for name in names:
        try:
            with open(name) as f:
                return json.loads(f.read())
        except OSError:
            pass

def _load(name):
    return __import__(name, None, None, ["_"])

def _replay(text, own):
    try:
        game = logfile.parse(text, "the log", _load)
        name = game.header.get("game")
        profile = _read((HOME + "profile.json",))
        if name not in profile["maps"]:
            raise positions.ReplayError("the %s board has no overlay for %s: open the page "
                                        "as a board that has one" % (profile["name"], name))
        rules = _read((("game_rules.json",) if own else ()) + rules_files(name))
        fw = positions.firmware(_load)
        steps = positions.positions(game, profile, rules, False, fw, False)
    except positions.ReplayError as e:
        return json.dumps({"error": str(e)})
    # (each step on its own: MicroPython's json.dumps of the whole answer took 16 s for 5,000
    # steps, its text grown by copies, and 0.2 s a step at a time)
    return '{"game": %s, "hidden_from": %s, "steps": [%s]}' % (
        json.dumps(name), json.dumps(game.hidden_from), ", ".join([json.dumps(
            {"frame": binascii.hexlify(s.frame).decode(), "state": s.described,
             "moves": s.moves, "took_back": s.took_back, "history": s.history})
            for s in steps]))
`;

// files: the board's flash ({path: Uint8Array}) with replay/positions.py and replay/logfile.py;
// text: the log; own: the log is this board's journal (its kept rule table applies).
export function replaySteps(loadMicroPython, files, text, own) {
  return answerInVm(loadMicroPython, 16 * 1024 * 1024, files, SCRIPT, "_replay", text, own);
}

// The words of one step: where it is, what was played to reach it ("?" where hidden).
export function stepWords(steps, i) {
  const s = steps[i];
  const head = `step ${i} of ${steps.length - 1} (move ${s.history})`;
  if (s.took_back || (i && !s.moves.length)) return `${head}: ${s.took_back} move${s.took_back === 1 ? "" : "s"} taken back`;
  if (!s.moves.length) return `${head}: the game begins`;
  const hidden = s.moves.filter((m) => m === "?").length;
  const shown = s.moves.filter((m) => m !== "?").map((m) => [].concat(m).join(" "));
  if (hidden) shown.push(`${hidden} hidden (?)`);
  return `${head}: played: ${shown.join(", ")}`;
}
