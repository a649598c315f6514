"""`cheeseboard web`: the board in a web page, on MicroPython's WebAssembly port.

The page (the files in web/ beside this module) loads the npm package
@micropython/micropython-webassembly-pyscript (installed into node_modules/ by `make`,
pinned in package.json and package-lock.json), writes the firmware image that
`cheeseboard flash` would put on a board into the VM's filesystem, and ticks the App.
This module makes the site, as a set of files, and serves it on localhost
(or writes it to a folder: any static host serves it as well):

    index.html, board.js, flash.mjs, save.mjs,   the page (package data; vision.mjs: the
    vision.mjs                                   board as colour-blind players see it)
    vm.html, vm.mjs, board.css                   (vm.html: one power-on's VM, in a frame)
    replay.mjs, replay/positions.py, logfile.py  a game's log replayed in a VM of its own
    tables.mjs, host/naming.py                   an uploaded table's check, in a VM of its own
    mp/micropython.mjs, mp/micropython.wasm      the VM (from node_modules)
    flash/PROFILE.json                           the image, laid out as a flashed board
    pictures/PROFILE-GAME.svg                    the overlay (cheeseboard.pictures.picture)
    profiles.json                                the boards the page can be
"""

import base64
import json
import mimetypes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cheeseboard import CheeseboardError, paths
from cheeseboard.flash import image
from cheeseboard.pictures import picture

NPM_PACKAGE = "@micropython/micropython-webassembly-pyscript"
PAGE_DIR = Path(__file__).resolve().parent
PAGE_FILES = ("index.html", "board.js", "flash.mjs", "save.mjs", "vm.html", "vm.mjs",
              "board.css", "vision.mjs", "replay.mjs", "tables.mjs")
# The replay's own code, which the page runs in a VM (it runs on MicroPython as on the host).
REPLAY_FILES = ("positions.py", "logfile.py")
# The host's rule for which game a rule table is for, which the page runs on an upload.
CHECK_FILES = {"host/naming.py": PAGE_DIR.parent / "rules" / "naming.py"}
VM_FILES = ("micropython.mjs", "micropython.wasm")


class WebError(CheeseboardError):
    """The site cannot be made (the npm package is missing, say)."""


def vm_dir():
    folder = paths.ROOT / "node_modules" / NPM_PACKAGE
    if not (folder / VM_FILES[0]).exists():
        raise WebError("MicroPython's WebAssembly port is not installed (%s): run `make web`, or "
                       "`npm ci` in %s" % (folder, paths.ROOT))
    return folder


def flash_json(profile):
    """The image `cheeseboard flash` would put on this board, laid out as the board's flash
    ({path: base64}), with its build id."""
    built = image.make(profile)
    files = {p: base64.b64encode(d).decode() for p, d in sorted(image.layout(built).items())}
    return json.dumps({"build": built.build_id, "profile": profile["name"], "files": files})


def site(names=None, default="pico"):
    """{path: bytes} of the whole site, for the named profiles (default: every one)."""
    names = names or paths.profile_names()
    out = {f: (PAGE_DIR / f).read_bytes() for f in PAGE_FILES}
    for f in REPLAY_FILES:
        out["replay/" + f] = (PAGE_DIR.parent / "replay" / f).read_bytes()
    for rel, source in CHECK_FILES.items():
        out[rel] = source.read_bytes()
    vm = vm_dir()
    for f in VM_FILES:
        out["mp/" + f] = (vm / f).read_bytes()
    boards = {}
    for name in names:
        profile = paths.load_profile(name)
        games = sorted(profile["maps"])
        boards[name] = {"title": profile["title"], "games": games}
        out["flash/%s.json" % name] = flash_json(profile).encode()
        for game in games:
            out["pictures/%s-%s.svg" % (name, game)] = picture.svg(profile, game).encode()
    first = default if default in boards else names[0]
    out["profiles.json"] = json.dumps({"default": first, "profiles": boards}).encode()
    return out


def export(folder, names=None, default="pico"):
    """Write the site into folder; returns the paths written."""
    folder = Path(folder)
    written = []
    for rel, data in sorted(site(names, default).items()):
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written


def make_server(files, host="127.0.0.1", port=0):
    """An HTTP server of the site's files (port 0: any free one)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            rel = self.path.split("?", 1)[0].lstrip("/") or "index.html"
            data = files.get(rel)
            if data is None:
                self.send_error(404, "no such file: %s" % rel)
                return
            kind = mimetypes.guess_type(rel)[0] or "application/octet-stream"
            if rel.endswith((".mjs", ".js")):
                kind = "text/javascript"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):  # quiet: the first line of output is the URL
            pass

    return ThreadingHTTPServer((host, port), Handler)
