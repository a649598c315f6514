"""The web board in a real headless Chromium (Debian's `chromium`, driven by playwright's
Python package with the system's browser: nothing is downloaded at run time).

`MISSING` says what is not installed here (None when the browser tests can run); the
conftest prints it as one line at the end of the run.
"""

import json
import os
import shutil
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# CHEESEBOARD_CHROMIUM names another browser binary (or a missing one, to see the skip).
CHROMIUM = os.environ.get("CHEESEBOARD_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ENABLE = ("the web board's browser tests were skipped (%s): `apt-get install chromium` and "
          "`pip install -e '.[dev]'` (playwright) enable them; `make` installs node_modules")


def _missing():
    if not Path(CHROMIUM).exists():
        return "no chromium"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no playwright"
    if not (ROOT / "node_modules" / "@micropython").exists():
        return "no node_modules"
    return None


MISSING = _missing()

PAGE_EPOCH_MS = 1_800_000_000_000  # the paused page clock's start (a date in 2027)
WALL_FLOOR_S = 60.0  # a paused page's wait gives up no sooner than this on the wall


class Site:
    """The web board's site served on localhost from this process."""

    def __init__(self, names=("pico",)):
        from cheeseboard.web import server as web

        self.files = web.site(list(names))
        self.server = web.make_server(self.files)
        self.url = "http://127.0.0.1:%d/" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class WebBoard:
    """One tab of the web board, with the browser console's errors collected."""

    def __init__(self, context, url, fake_clock=False):
        self.page = context.new_page()
        self.errors = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.fake_clock = fake_clock
        self._centres = {}
        if fake_clock:
            # The page's clock (and so the firmware's ticks_ms) moves only when the test says:
            # a whole game plays in seconds, its timings (the dice's roll, the bot's pause) intact.
            # Paused from the start: an installed clock otherwise flows with the wall's, and a
            # test's two looks at the page would see two instants a busy machine sets apart.
            self.page.clock.install(time=PAGE_EPOCH_MS)
            self.page.clock.pause_at(PAGE_EPOCH_MS + 1)
        self.page.goto(url)

    def js(self, expr):
        return self.page.evaluate(expr)

    def advance(self, ms):
        """Let ms of the board's time pass (real time without a fake clock)."""
        if self.fake_clock:
            self.page.clock.run_for(ms)
        else:
            self.page.wait_for_timeout(ms)

    def wait_for(self, expr, ms=20000, step=50, what=None):
        """Advance the board until the JS expression is true; its value. Gives up after ms of
        the page's time, and with the page's clock paused no sooner than WALL_FLOOR_S of the
        wall's: what the page awaits outside its timers (loading the VM, a fetch) takes the
        wall's time, however little of the page's has passed."""
        waited = 0
        floor = time.monotonic() + (WALL_FLOOR_S if self.fake_clock else 0)
        while True:
            value = self.js(expr)
            if value:
                return value
            if waited >= ms and time.monotonic() >= floor:
                raise AssertionError("timed out after %d ms waiting for %s; the page says: %s; "
                                     "console ends: %s" % (ms, what or expr, self.js(
                                         "document.getElementById('status').textContent"),
                                         self.js("document.getElementById('console')"
                                                 ".textContent.slice(-600)")))
            self.advance(step)
            waited += step

    def boot(self):
        return self.wait_for("window.cheeseboard && window.cheeseboard.hello", what="hello")

    def state(self):
        return self.js("window.cheeseboard.state()")

    def click(self, button, then_ms=0):
        """Click an on-screen button (the mouse at its middle), let the board take the press
        in, then let then_ms more pass."""
        if button not in self._centres:
            box = self.page.locator("[data-button=%s]" % button).bounding_box()
            self._centres[button] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.mouse.click(*self._centres[button])
        if self.fake_clock:
            # The page holds a press PRESS_MS and releases it RELEASE_MS (board.js): 120 ms of
            # the board's time play it, whatever the machine's speed.
            self.advance(160 + then_ms)
            return
        self.wait_for("window.cheeseboard.idle()", what="the press to be played", step=20)
        self.advance(30 + then_ms)

    def menu(self, game, options):
        """Walk the menu with the on-screen buttons: the game, then each option's value."""
        while self.state()["value"] != game:
            self._menu_press("next")
        self._menu_press("ok")
        while self.state()["mode"] == "menu":
            s = self.state()
            want = options.get(s["step"], s["choices"][0])
            while json.dumps(self.state()["value"]) != json.dumps(want):
                self._menu_press("next")
            self._menu_press("ok")

    def _menu_press(self, button):
        """A press in the menu, which must change what the menu shows (a button the page
        drew out of the window's reach, say, would not)."""
        before = self.state()
        self.click(button)
        if self.state() == before:
            raise AssertionError("the menu did not take %s: %s" % (button, before))


def upload_table(board, path):
    """Send a rule table's file with the page's file input; the verdict the page shows."""
    board.js("document.getElementById('table-result').textContent = ''")
    board.page.set_input_files("#table-file", str(path))
    return board.wait_for("(t => (t.includes(': taken') || t.includes(': refused')) && t)"
                          "(document.getElementById('table-result').textContent)",
                          what="the upload's verdict")


def table_sha(board, name):
    """The sha256 of the table the page's board holds for a game (the protocol's `tables`)."""
    return {t["name"]: t for t in board.js("window.cheeseboard.request('tables')")["tables"]}[
        name]["sha256"]
