// An uploaded rule table's check before the page sends it, as `cheeseboard rules check` starts
// its own: the firmware's bounds and strict JSON (cheesefw.table_check.parse, the board's), then
// the host's rule for which game a table is for (host/cheeseboard/rules/naming.py, served as
// host/naming.py: a file named kitchen.json holding Gouda's table, or a game the firmware does
// not play, is refused with the host's words). It runs in a VM of its own, beside the board's
// firmware image; the board's commit then checks the rest (the schema, the game's own checks).

import { BOARD_PRELUDE, answerInVm } from "./vm.mjs";

// The VM's side: the board's start (the firmware's slot on the import path), then the check
// of upload.json; its answer is JSON: {game: the name to send it under, refused: [lines]}.
const SCRIPT = `${BOARD_PRELUDE}sys.path.append("/host")
import naming
from cheesefw import table_check
from cheesefw.games import GAMES

def _check(file_name):
    with open("/upload.json", "rb") as f:
        data = f.read()
    table = None
    try:
        table = table_check.parse(data)
        refused = naming.problems(file_name, table, GAMES)
    except ValueError as e:
        refused = [str(e)]
    game = naming.game_of(file_name, table, GAMES) or naming.stem(file_name)
    return json.dumps({"game": game, "refused": refused})
`;

// files: the board's flash ({path: Uint8Array}) with host/naming.py; bytes: the file's.
export function checkTable(loadMicroPython, files, fileName, bytes) {
  return answerInVm(loadMicroPython, 1024 * 1024, { ...files, "upload.json": bytes }, SCRIPT,
                    "_check", fileName);
}
