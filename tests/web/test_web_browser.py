"""The web board in a real headless Chromium: the firmware image as flashed, on MicroPython's
WebAssembly port, played with the page's buttons, keys and touch."""

import base64
import hashlib
import json
import re

import pytest
from webpage import CHROMIUM, MISSING, Site, WebBoard, table_sha, upload_table

from cheeseboard import paths
from cheeseboard.flash import image

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

# Not in `cheeseboard test`'s quick set (a minute and a half in a browser): `make test` runs them.


@pytest.fixture(scope="module")
def site():
    s = Site(("pico", "pico16"))
    yield s
    s.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def open_board(browser, site):
    """open_board(fake_clock=False, context=None, profile="pico") -> a WebBoard in a fresh
    browser profile (or in the given context: tabs of one browser share its storage)."""
    contexts, boards = [], []

    def make(fake_clock=False, context=None, profile="pico", **kwargs):
        if context is None:
            context = browser.new_context(**kwargs)
            contexts.append(context)
        board = WebBoard(context, site.url + "?profile=" + profile, fake_clock)
        boards.append(board)
        return board

    yield make
    for board in boards:
        assert board.errors == [], board.errors  # nothing went wrong in the browser's console
    for c in contexts:
        c.close()


def rgb(fill):
    return tuple(int(v) for v in fill[4:-1].split(","))


def test_the_page_boots_the_flashed_image_and_shows_its_hello(open_board, site):
    board = open_board()
    hello = board.boot()
    flash = json.loads(site.files["flash/pico.json"])
    built = image.make(paths.load_profile("pico"))
    assert flash["build"] == built.build_id  # the image `cheeseboard flash` would write
    assert base64.b64decode(flash["files"]["slot_a/cheesefw/app.mpy"]) == \
        built.files["cheesefw/app.mpy"]
    assert hello["firmware"] == built.manifest["version"]
    assert hello["runtime"] == "micropython 1.29.0" and hello["platform"] == "webassembly"
    assert hello["slot"]["build"] == built.build_id
    text = board.page.text_content("#hello")
    assert "firmware %s on micropython 1.29.0" % hello["firmware"] in text
    assert '"cmd":"hello"' in board.page.text_content("#console")
    assert board.state()["mode"] == "menu"


def test_a_whole_two_player_gouda_game_played_with_the_on_screen_buttons(open_board):
    board = open_board(fake_clock=True)
    board.boot()
    board.menu("gouda", {"players": 2})
    s = board.state()
    assert s["mode"] == "play" and s["game"] == "gouda"
    for _ in range(3000):
        s = board.state()
        if s["wait"] == "over":
            break
        if s["wait"] == "roll":
            board.click("roll", 800)
        elif s["wait"] == "decide":
            if s["choices"] > 1:
                board.click("prev")  # the last choice (the cursor wraps): games end sooner
            board.click("ok")
        else:
            board.advance(100)
    assert s["wait"] == "over", s
    assert s["winners"] and set(s["winners"]) <= {0, 1}
    assert "winners: " in board.page.text_content("#state")
    board.click("ok")  # back to the menu
    assert board.state()["mode"] == "menu"


@pytest.mark.parametrize("game,options,profile", [
    ("kitchen", {"seat1": "board"}, "pico"),
    ("kalle", {"players": 3}, "pico"),
    ("katz", {"players": 2}, "pico"),
    ("gatenkaas", {"players": 2}, "pico16"),  # hands hidden: seen while roll (Space) is held
])
def test_a_whole_game_of_each_game_played_on_the_page(open_board, game, options, profile):
    """Mouse clicks on the on-screen buttons; a hidden hand by the keyboard, Space held down
    while the arrows and Enter choose (the mouse has one button to hold)."""
    import random

    board = open_board(fake_clock=True, profile=profile)
    board.boot()
    board.menu(game, options)
    s = board.state()
    assert s["mode"] == "play" and s["game"] == game
    rng = random.Random(game)
    secret = 0
    for _ in range(4000):
        s = board.state()
        if s["wait"] == "over":
            break
        if s["wait"] == "roll":
            board.click("roll", 800)
        elif s["wait"] == "decide" and s.get("private") is not None:
            assert "offer" not in s  # nobody sees the hand before its player holds roll
            board.page.keyboard.down(" ")
            board.advance(100)
            for _ in range(rng.randrange(min(board.state()["choices"], 4))):
                board.page.keyboard.press("ArrowRight")
                board.advance(160)
            board.page.keyboard.press("Enter")
            board.advance(160)
            board.page.keyboard.up(" ")
            board.advance(160)
            secret += 1
        elif s["wait"] == "decide":
            for _ in range(rng.randrange(min(s["choices"], 4))):
                board.click("next")
            board.click("ok")
        else:
            board.advance(500)  # the board's own seat, a reaction window, a card turned over
    assert s["wait"] == "over", s
    assert s["winners"] is not None
    # The page shows the board's state each 100 ms or more of its clock: the end within a few.
    board.wait_for("document.getElementById('state').textContent.includes('winners: ')", 1000,
                   what="the winners on the page")
    assert secret > 10 if game == "gatenkaas" else secret == 0


def test_kitchen_first_turns_with_the_board_playing_the_cat(open_board):
    board = open_board(fake_clock=True)
    board.boot()
    board.menu("kitchen", {"seat1": "board"})
    assert board.page.locator("#picture text", has_text="hole").count() == 4  # its overlay
    cat_moves = 0
    for _ in range(400):
        s = board.state()
        if s["wait"] == "bot":
            assert s["turn"] == 1  # the cat's seat
            before = s["moves"]
            board.wait_for("window.cheeseboard.state().wait !== 'bot'", what="the cat's move")
            assert board.state()["moves"] > before  # it moved by itself
            cat_moves += 1
            if cat_moves == 2:
                break
        elif s["wait"] == "roll":
            board.click("roll", 800)
        elif s["wait"] == "decide":
            assert s["turn"] == 0  # only the mice are asked
            board.click("ok")
        else:
            board.advance(100)
    assert cat_moves == 2


def test_the_pictures_pixels_are_the_frame_the_firmware_wrote(open_board):
    board = open_board(fake_clock=True)
    board.boot()
    board.menu("gouda", {"players": 3})
    board.click("roll")
    board.advance(300)  # mid-roll: the die column tumbles
    for _ in range(3):
        # Read at once (between two ticks): the frame last written, and the picture's colours.
        hexa, fills = board.js("[window.cheeseboard.frameHex(), Array.from(document"
                               ".querySelectorAll('#picture circle.px'), c => [+c.id.slice(3), "
                               "c.getAttribute('fill')])]")
        frame = bytes.fromhex(hexa)
        assert len(fills) == len(frame) // 3 == 64
        assert len({f for _, f in fills}) > 3  # a lit board, not a blank one
        for px, fill in fills:
            assert rgb(fill) == tuple(frame[3 * px:3 * px + 3]), px
        board.advance(170)


def test_the_page_saves_its_picture_as_svg_and_png(open_board):
    board = open_board(fake_clock=True, accept_downloads=True)
    board.boot()
    hexa = board.js("window.cheeseboard.frameHex()")
    with board.page.expect_download() as svg_download:
        board.page.click("#save-svg")
    assert svg_download.value.suggested_filename == "pico-gouda.svg"
    text = open(svg_download.value.path()).read()
    fills = dict(re.findall(r'id="px-(\d+)"[^>]*fill="(rgb\([^)]*\))"', text))
    frame = bytes.fromhex(hexa)
    assert len(fills) == 64
    for px, fill in fills.items():
        assert rgb(fill) == tuple(frame[3 * int(px):3 * int(px) + 3])
    with board.page.expect_download() as png_download:
        board.page.click("#save-png")
        board.advance(100)
    assert open(png_download.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"


def test_keys_and_touch_press_the_buttons(open_board):
    board = open_board(has_touch=True)
    board.boot()
    start = board.state()
    choices = start["choices"]
    i = choices.index(start["value"])
    board.page.keyboard.press("ArrowRight")
    board.wait_for("window.cheeseboard.state().value === %s" % json.dumps(choices[(i + 1) % 2]))
    board.page.keyboard.press("h")  # the terminal view's other key for prev
    board.wait_for("window.cheeseboard.state().value === %s" % json.dumps(start["value"]))
    board.page.locator("[data-button=next]").tap()
    board.wait_for("window.cheeseboard.state().value === %s" % json.dumps(choices[(i + 1) % 2]))
    board.page.keyboard.press("Enter")
    step = board.wait_for("(s => s.step !== 'game' && s.step)(window.cheeseboard.state())")
    board.advance(200)
    assert "menu (%s:" % step in board.page.text_content("#keys")


def test_a_reload_mid_game_resumes_at_the_last_completed_move(open_board):
    board = open_board(fake_clock=True)
    board.boot()
    board.menu("gouda", {"players": 2})
    for _ in range(12):
        s = board.state()
        if s["wait"] == "roll":
            board.click("roll", 800)
        elif s["wait"] == "decide":
            board.click("ok")
    before = board.state()
    assert before["moves"] >= 4
    board.page.reload()
    board.boot()
    after = board.state()
    assert after["mode"] == "play" and after["game"] == "gouda"
    for key in ("moves", "turn", "options", "wait"):
        assert after[key] == before[key], key
    assert board.page.locator("#picture text", has_text="big jug").count() == 1


def test_a_second_tab_leaves_the_board_alone_or_takes_it_over(open_board, browser):
    context = browser.new_context()
    try:
        first = open_board(context=context)
        first.boot()
        second = open_board(context=context)
        second.wait_for("document.getElementById('banner').hidden === false")
        assert "open in another tab" in second.page.text_content("#banner")
        assert second.js("window.cheeseboard.running") is False
        second.page.click("#banner-action")  # take it over
        second.boot()
        first.wait_for("window.cheeseboard.running === false", what="the first tab to stop")
        assert "took this board over" in first.page.text_content("#banner")
        assert second.state()["mode"] == "menu"
    finally:
        for b in (first, second):
            assert b.errors == []
        context.close()


def test_a_firmware_exception_shows_its_traceback_and_offers_a_restart(open_board):
    board = open_board()
    board.boot()
    # A board's flash with a torn module of its firmware (a torn profile no longer does: the
    # board falls back to its last good copy): the firmware raises as it boots. The board's own
    # files are laid over the flashed ones at power-on, as a half-written file would lie.
    key = "cheeseboard:pico:file:slot_a/cheesefw/startup.mpy"
    board.js("localStorage.setItem(%r, btoa('torn'))" % key)
    board.page.click("#restart")
    board.wait_for("window.cheeseboard.crashed")
    console = board.page.text_content("#console")
    assert "Traceback (most recent call last)" in console and "incompatible .mpy" in console
    assert board.page.text_content("#banner-action") == "Restart the board"
    board.js("localStorage.removeItem(%r)" % key)
    board.page.click("#banner-action")
    board.wait_for("window.cheeseboard.running && !window.cheeseboard.crashed")
    assert board.state()["mode"] == "menu"


def test_a_bad_rule_table_is_refused_with_its_field_named_and_the_old_one_stays(open_board,
                                                                                 tmp_path):
    board = open_board()
    board.boot()
    good = json.loads((paths.FIRMWARE / "rules" / "kitchen.json").read_text())
    bad = dict(good, grid={"cols": 0, "rows": 7})
    path = tmp_path / "kitchen.json"
    path.write_text(json.dumps(bad))
    board.page.set_input_files("#table-file", str(path))
    result = board.wait_for("(t => t.includes('refused') && t)"
                            "(document.getElementById('table-result').textContent)")
    assert "grid" in result
    tables = {t["name"]: t for t in board.js("window.cheeseboard.request('tables')")["tables"]}
    default = (paths.FIRMWARE / "rules" / "kitchen.json").read_bytes()
    assert tables["kitchen"]["sha256"] == hashlib.sha256(default).hexdigest()  # the old one
    board.page.set_input_files("#table-file", str(paths.FIRMWARE / "rules" / "kitchen.json"))
    board.wait_for("document.getElementById('table-result').textContent.includes('taken')")


def _play_a_few_moves(board, moves):
    """Roll and take the first move until the game has `moves` moves; its state."""
    for _ in range(10 * moves):
        s = board.state()
        if s["moves"] >= moves and s["wait"] in ("roll", "decide"):
            return s
        if s["wait"] == "roll":
            board.click("roll", 800)
        elif s["wait"] == "decide":
            board.click("ok")
        else:
            board.advance(100)
    raise AssertionError("the game did not reach %d moves: %s" % (moves, board.state()))


GAME_KEYS = ("mode", "game", "moves", "turn", "options", "wait")


def power_cycles(board, presses, seed):
    """Press "power cycle" (and, once, "new board") `presses` times at varied instants, some
    while the board before is still booting, others mid-game; after each burst the board must
    answer hello from the flashed build, with its game as it was (or the menu after "new
    board"), and nothing of an old VM may reach a new one (no error, no crash)."""
    import random

    rng = random.Random(seed)
    built = image.make(paths.load_profile("pico")).build_id
    board.boot()
    board.menu("gouda", {"players": 2})
    expected = {k: v for k, v in _play_a_few_moves(board, 4).items() if k in GAME_KEYS}
    board.page.clock.resume()  # from here real time: the presses land where the boot is
    board.fake_clock = False
    forget_at = presses - max(3, presses // 6)
    pressed = 0
    while pressed < presses:
        for _ in range(min(rng.randint(1, 3), presses - pressed)):
            button = "#forget" if pressed == forget_at else "#restart"
            board.page.click(button)
            if button == "#forget":
                expected = {"mode": "menu"}
            pressed += 1
            board.page.wait_for_timeout(rng.choice([0, 5, 30, 100, 300, 700, 1500, 2500]))
        hello = board.wait_for("window.cheeseboard.hello", what="hello after power cycle %d"
                               % pressed)
        assert hello["slot"]["build"] == built
        assert board.js("window.cheeseboard.running && !window.cheeseboard.crashed")
        s = board.state()
        assert {k: s.get(k) for k in expected} == expected, (pressed, s)
        assert board.errors == []
    assert "Traceback" not in board.page.text_content("#console")


def test_power_cycle_and_new_board_at_any_instant_leave_a_healthy_board(open_board):
    power_cycles(open_board(fake_clock=True), 12, seed=1)


@pytest.mark.slow
def test_fifty_power_cycles_at_varied_instants(open_board):
    power_cycles(open_board(fake_clock=True), 50, seed=2)


KITCHEN = (paths.FIRMWARE / "rules" / "kitchen.json").read_bytes()


def test_an_upload_that_is_not_ascii_gets_the_boards_verdict(open_board, tmp_path):
    """Sent as `cheeseboard sync` sends it (base64: a protocol line is ASCII), the board's own
    check answers; the page used to wait on "sending kitchen…" for ever."""
    board = open_board()
    board.boot()
    wide = tmp_path / "kitchen.json"
    wide.write_bytes(KITCHEN.replace(b'"f4"', '"f\uff14"'.encode()))
    result = upload_table(board, wide)
    assert result.startswith("kitchen: refused: ") and "expected ASCII" in result, result
    assert table_sha(board, "kitchen") == hashlib.sha256(KITCHEN).hexdigest()


def test_an_upload_with_a_byte_order_mark_is_judged_on_its_bytes(open_board, tmp_path):
    """The board is sent the file's bytes, BOM and all, so its verdict is about them, never a
    hash of other bytes ("sha256 mismatch")."""
    board = open_board()
    board.boot()
    bom = tmp_path / "kitchen.json"
    bom.write_bytes(b"\xef\xbb\xbf" + KITCHEN)
    result = upload_table(board, bom)
    assert result.startswith("kitchen: ") and "sha256" not in result, result
    sent = KITCHEN if "refused" in result else bom.read_bytes()
    assert table_sha(board, "kitchen") == hashlib.sha256(sent).hexdigest(), result


def test_an_upload_is_named_for_its_game_as_sync_names_it(open_board, tmp_path):
    """kitchen-8.json is a kitchen table (its own `game`, else its name's start)."""
    board = open_board()
    board.boot()
    variant = json.loads(KITCHEN)
    variant["win"]["cheese"] = 8
    named = tmp_path / "kitchen-8.json"
    named.write_text(json.dumps(variant))
    result = upload_table(board, named)
    assert result.startswith("kitchen: taken"), result
    assert table_sha(board, "kitchen") == hashlib.sha256(named.read_bytes()).hexdigest()


def test_the_state_line_names_the_player_to_roll(open_board):
    board = open_board(fake_clock=True)
    board.boot()
    board.menu("gouda", {"players": 2})
    for _ in range(40):
        s = board.state()
        if s["wait"] == "roll":
            break
        board.click("ok") if s["wait"] == "decide" else board.advance(100)
    assert s["wait"] == "roll" and s["turn"] < 0  # the dice's own turn (a chance node)
    board.advance(200)
    assert "player %d to roll" % (s["roller"] + 1) in board.page.text_content("#state")
    assert "player 0" not in board.page.text_content("#state")


def test_a_hidden_hand_says_how_to_see_it(open_board):
    board = open_board(fake_clock=True, profile="pico16")
    board.boot()
    board.menu("gatenkaas", {"players": 2})
    board.wait_for("(s => s.wait === 'decide' && s.private)(window.cheeseboard.state())",
                   what="a hidden hand")
    board.advance(200)
    keys = board.page.text_content("#keys")
    assert "hidden" in keys and "hold Space" in keys, keys


def test_the_board_chosen_last_opens_again(open_board, site):
    board = open_board(profile="pico16")
    assert board.boot()["profile"] == "pico16"
    board.page.goto(site.url)  # the address without a board: the one chosen last
    assert board.boot()["profile"] == "pico16"
    assert board.js("document.getElementById('profile').value") == "pico16"


def test_a_table_with_a_trailing_comma_is_refused_and_the_old_one_stays(open_board, tmp_path):
    """The web board runs the firmware's own check: strict JSON, as the host reads it."""
    board = open_board()
    board.boot()
    default = (paths.FIRMWARE / "rules" / "kitchen.json").read_bytes()
    path = tmp_path / "kitchen.json"
    path.write_bytes(default.rstrip()[:-1].rstrip() + b",\n}\n")
    board.page.set_input_files("#table-file", str(path))
    result = board.wait_for("(t => t.includes('refused') && t)"
                            "(document.getElementById('table-result').textContent)")
    assert "a comma before } at byte" in result
    tables = {t["name"]: t for t in board.js("window.cheeseboard.request('tables')")["tables"]}
    assert tables["kitchen"]["sha256"] == hashlib.sha256(default).hexdigest()


def test_the_page_says_the_menu_offers_and_status_in_the_firmware_s_own_words(open_board):
    # The same lines as the terminal view: cheesefw.words over the board's state
    words = paths.import_firmware("cheesefw.words")
    board = open_board(fake_clock=True)
    board.boot()

    def shown():
        board.advance(200)  # the page shows the state every 100 ms of its clock
        s = board.js("window.cheeseboard.lastState")
        return board.page.text_content("#state"), "\n".join(words.lines(s))

    while board.state()["value"] != "kitchen":
        board.click("next")
    board.click("ok")
    page, terminal = shown()
    assert page == terminal == "menu: short game = no   (the choices: no, yes)"
    board.click("ok")
    page, terminal = shown()
    assert page == terminal and page.startswith("menu: seat 1 (the mice) = a person")
    board.click("ok")
    board.click("ok")
    for _ in range(40):
        if board.state()["wait"] == "decide":
            break
        board.advance(100)
    page, terminal = shown()
    assert page == terminal and re.search(r"the cat to choose: put the cat on \w+ \(one of \d+\)",
                                          page), page


def test_at_a_phone_s_width_the_16x16_board_and_every_button_fit(open_board):
    board = open_board(profile="pico16", viewport={"width": 390, "height": 844},
                       has_touch=True, is_mobile=True)
    board.boot()
    width = board.js("document.documentElement.clientWidth")
    assert width <= 390
    for button in ("prev", "next", "ok", "back", "roll"):
        box = board.page.locator("[data-button=%s]" % button).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (button, box, width)
    svg = board.page.locator("#picture svg").bounding_box()
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= width, (svg, width)
    # Nothing wider than the window: no column of the board scrolled off to the side
    assert board.js("document.documentElement.scrollWidth") <= width
