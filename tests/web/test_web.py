"""`cheeseboard web`: the site it serves and exports, and the firmware's web backend on the
WebAssembly port in Node (no browser needed)."""

import json
import shutil
import subprocess
import sys
import urllib.request

import pytest

from cheeseboard import paths
from cheeseboard.flash import image
from cheeseboard.pictures import picture
from cheeseboard.web import server as web
from cheesefw.games import GAMES

NODE = shutil.which("node")
HAVE_VM = (paths.ROOT / "node_modules" / web.NPM_PACKAGE / "micropython.mjs").exists()
needs_vm = pytest.mark.skipif(not (NODE and HAVE_VM), reason="no node or node_modules (make)")


@needs_vm
def test_web_prints_its_url_first_and_serves_the_page_the_vm_and_the_image(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "cheeseboard", "web", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/?profile=pico")
        base = url.split("?")[0]
        page = urllib.request.urlopen(base).read().decode()
        assert '<script type="module" src="board.js">' in page
        mjs = urllib.request.urlopen(base + "mp/micropython.mjs")
        assert mjs.headers["Content-Type"] == "text/javascript"
        flash = json.load(urllib.request.urlopen(base + "flash/pico.json"))
        assert flash["build"] == image.make(paths.load_profile("pico")).build_id
        svg = urllib.request.urlopen(base + "pictures/pico-kitchen.svg").read().decode()
        assert svg == picture.svg(paths.load_profile("pico"), "kitchen")
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(base + "nothing.js")
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


@needs_vm
def test_export_writes_the_whole_site_as_static_files(tmp_path):
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "web", "--export", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    names = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    for f in web.PAGE_FILES:
        assert f in names
    assert {"mp/micropython.mjs", "mp/micropython.wasm", "profiles.json"} <= names
    for name in paths.profile_names():
        assert "flash/%s.json" % name in names
        for game in paths.load_profile(name)["maps"]:
            assert "pictures/%s-%s.svg" % (name, game) in names
    site = json.loads((tmp_path / "profiles.json").read_text())
    assert site["default"] == "pico"
    assert site["profiles"]["pico"]["games"] == sorted(
        g for g in GAMES if g in paths.load_profile("pico")["maps"])


def test_without_the_npm_package_the_error_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    with pytest.raises(web.WebError, match="make web"):
        web.site(["pico"])


NODE_BOARD = r"""
import { loadMicroPython } from "%(mjs)s";
import { boot, frameRequest, parseReply } from "%(vm)s";
import fs from "node:fs";
const raw = JSON.parse(fs.readFileSync(process.argv[2]));
const files = {};
for (const [k, v] of Object.entries(raw.files)) files[k] = Buffer.from(v, "base64");
let text = "";
const b = await boot(loadMicroPython, files, (t) => { text += t; });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const run = async (ms) => { for (let t = 0; t < ms; t += 10) { b.tick(); await sleep(10); } };
b.feed(frameRequest({ id: 7, cmd: "hello" }));
await run(30);
const atBoot = b.changed().map(([n]) => n);
const hello = text.split("\n").map(parseReply).find((r) => r && r.id === 7);
const before = b.state();
b.setPin("next", 0); await run(80); b.setPin("next", 1); await run(80);
const after = b.state();
b.setPin("ok", 0); await run(80); b.setPin("ok", 1); await run(80);
console.log(JSON.stringify({ hello, before, after, frame: b.frameHex().length, atBoot,
                             changed: b.changed().map(([n, d]) => [n, d && d.length]) }));
"""


@needs_vm
@pytest.mark.board
def test_the_web_backend_on_the_wasm_port_answers_takes_buttons_and_lights(tmp_path):
    vm = paths.ROOT / "node_modules" / web.NPM_PACKAGE / "micropython.mjs"
    script = tmp_path / "board.mjs"
    script.write_text(NODE_BOARD % {"mjs": vm, "vm": web.PAGE_DIR / "vm.mjs"})
    (tmp_path / "flash.json").write_text(web.flash_json(paths.load_profile("pico")))
    r = subprocess.run([NODE, str(script), str(tmp_path / "flash.json")], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["hello"]["ok"] and out["hello"]["platform"] == "webassembly"
    assert out["before"]["value"] != out["after"]["value"]  # next moved the menu
    assert out["frame"] == 6 * 64
    # The first boot stamps the profile it checked, and keeps a copy of it to fall back on.
    assert sorted(out["atBoot"]) == ["checked.json", "profile.good.json"]
    assert out["changed"] == []  # the menu writes nothing to the flash
