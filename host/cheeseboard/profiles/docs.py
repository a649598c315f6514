"""The hardware docs, written from the profiles: README, BOM, wiring and layout SVGs.

Pure functions of the parsed profiles (no clock, no paths), so that regenerating
gives the same bytes and a test can tell when a committed file is out of date.
"""

from xml.sax.saxutils import escape

HEADER = "<!-- generated from hardware/profiles by `cheeseboard profile docs`: do not edit -->\n"
SVG_NOTE = "<!-- generated from hardware/profiles/%s.json by `cheeseboard profile docs` -->\n"
SUPPLY_PIN = {"rp2": "VSYS", "esp32": "5V (VIN)", "circuitpython": "VSYS"}
FLASH = {
    "rp2": "`make uf2 PROFILE=%(name)s` (or `.venv/bin/cheeseboard uf2 --profile %(name)s`; "
           "a few minutes the first time, then cached) builds one `cheeseboard-%(name)s.uf2`: "
           "MicroPython with the firmware, its rule tables and this profile frozen in. Hold "
           "BOOTSEL while plugging the Pico in and copy it onto the drive that appears: the "
           "board boots to the menu. (Or copy MicroPython's own `.uf2` for the Raspberry Pi "
           "Pico and install the firmware with `cheeseboard flash` below.)",
    "esp32": "Write MicroPython for ESP32 with `esptool.py --chip esp32 write_flash -z 0x1000 "
             "ESP32_GENERIC-<version>.bin`.",
    "circuitpython": "Hold BOOTSEL, copy CircuitPython's `.uf2` for the Raspberry Pi Pico, then "
                     "`circup install neopixel` (or copy `neopixel.mpy` and "
                     "`adafruit_pixelbuf.mpy` from the Adafruit bundle into `lib/`). The board "
                     "saves its game as it goes: add a `boot.py` with `import storage; "
                     "storage.remount(\"/\", readonly=False)` (the CIRCUITPY drive is then "
                     "read-only to the computer until it is removed again from the REPL).",
}
CELL = 54


def pin_name(profile, pin):
    """A pin as the board's silkscreen or its firmware names it."""
    if profile["platform"] == "circuitpython":
        return "board.%s" % pin
    return ("GP%d" if profile["platform"] == "rp2" else "GPIO%d") % pin


def render_all(profiles):
    """{path under hardware/: text} for every generated file."""
    from cheeseboard.kit import guide  # it draws with the pictures, which use positions()

    docs = {"README.md": readme(profiles), "bom.md": bom(profiles)}
    for p in profiles:
        docs["diagrams/%s-wiring.svg" % p["name"]] = wiring_svg(p)
        docs["diagrams/%s-layout.svg" % p["name"]] = layout_svg(p)
    docs.update(guide.files(profiles))
    return docs


# -- markdown -------------------------------------------------------------------------


def bom(profiles):
    out = [HEADER, "# Bill of materials\n"]
    for p in profiles:
        out.append("\n## %s (`%s`)\n\n| qty | part | what for |\n| ---: | --- | --- |\n"
                   % (p["title"], p["name"]))
        for qty, part, why in p["bom"]:
            out.append("| %s | %s | %s |\n" % (qty, part, why))
    return "".join(out)


def readme(profiles):
    from cheeseboard.kit import guide

    out = [HEADER, "# Building a cheeseboard\n\n",
           "Every board is one chain of WS2812B pixels (an LED matrix under a printed overlay "
           "per game, a printed grid between them), five push buttons and a microcontroller, "
           "in a printed case. The profiles in `profiles/` say which pin does what and which "
           "panel the board has; this file, [the parts list](bom.md), the diagrams, the "
           "overlays and the CAD files are generated from them (`cheeseboard profile docs`, "
           "`make overlays`, `make hardware`), and `cheeseboard profile check` checks them "
           "as the board does at boot. Follow the steps in order.\n\n",
           "## 1. Parts\n\nThe parts for each board are in [the parts list](bom.md).\n\n"
           "| profile | controller | firmware | LED data | buttons "
           "(prev, next, ok, back, roll) | pixels | LED budget | heap |\n"
           "| --- | --- | --- | --- | --- | ---: | ---: | ---: |\n"]
    for p in profiles:
        b = p["buttons"]
        out.append("| `%s` | %s | %s (`%s`) | %s | %s | %d | %d mA | %d B |\n" % (
            p["name"], p["mcu"], "CircuitPython" if p["platform"] == "circuitpython"
            else "MicroPython", p["arch"], pin_name(p, p["led"]["pin"]),
            ", ".join(pin_name(p, b[k]) for k in ("prev", "next", "ok", "back", "roll")),
            p["led"]["count"], p["led"]["budget_ma"], p["heap"]))
    out.append("\n" + guide.parts(profiles))
    out.append("\n## 2. Print the overlays, the grid and the case\n\n" + guide.printing(profiles))
    out.append(
        "\n## 3. Wire\n\n"
        "- **LEDs**: the controller's LED pin, through the level shifter (3.3 V to 5 V) and a "
        "330 ohm resistor, to the matrix's DIN. Pixel 0 is the first on the chain.\n"
        "- **Buttons**: each between its pin and GND. The firmware turns on the pin's pull-up "
        "(pressed reads 0) and debounces it (20 ms).\n"
        "- **Power**: the 5 V supply feeds the matrix's 5 V and GND directly, and the "
        "controller's 5 V input; all grounds joined. A 1000 uF capacitor across the matrix's "
        "supply takes the inrush.\n\n")
    for p in profiles:
        out.append("![%s wiring](diagrams/%s-wiring.svg)\n" % (p["name"], p["name"]))
    out.append(
        "\n### Power\n\n"
        "A WS2812B draws about `led.ma_full_white` mA at full white. The firmware estimates "
        "each frame's current from its colours and scales the whole frame down when it would "
        "pass `led.budget_ma`, so the supply must give the budget plus the controller's "
        "own (about 100 mA):\n\n| profile | all pixels white, unlimited | budget | supply |\n"
        "| --- | ---: | ---: | --- |\n")
    for p in profiles:
        led, s = p["led"], p["supply"]
        out.append("| `%s` | %d mA | %d mA | %s V %s A |\n" % (
            p["name"], led["count"] * led.get("ma_full_white", 60), led["budget_ma"],
            s["volts"], s["amps"]))
    out.append("\n### Layouts\n\nWhat each pixel shows, per game (the overlay's holes go over "
               "these): spaces by id, then the die, the seat lights, the status light and the "
               "meter.\n\n")
    for p in profiles:
        out.append("![%s layout](diagrams/%s-layout.svg)\n" % (p["name"], p["name"]))
    out.append(
        "\n## 4. Flash\n\nFirst put the firmware's runtime on the controller:\n\n")
    for p in profiles:
        out.append("- `%s`: %s\n" % (p["name"], FLASH[p["platform"]] % {"name": p["name"]}))
    out.append(
        "\nThen, from a checkout, install the cheeseboard firmware with the board's profile, "
        "or update it on a board from the UF2 (it finds the board by its USB ids; `--port` "
        "names one):\n\n```sh\n"
        ".venv/bin/cheeseboard flash --profile pico\n"
        ".venv/bin/cheeseboard info\n```\n\n"
        "It sends only what changed, checks it on the board, and goes back to the old "
        "firmware if the new one fails to come up ([docs/flashing.md](../docs/flashing.md)); "
        "on a board from the UF2, what is flashed runs first and the frozen firmware is the "
        "last to go back to. "
        "CircuitPython boards are not flashed this way: copy `firmware/cheesefw`, "
        "`firmware/rules` and `firmware/main.py` onto the CIRCUITPY drive, and the profile "
        "as `profile.json`.\n\n"
        "At boot the firmware checks `profile.json`; a wrong one stops it with a line per "
        "fault on the console (`mpremote connect /dev/ttyACM0 repl`), such as "
        "`profile.json: maps.gouda.m3: pixel 70 is past led.count 64`.\n\n"
        "## 5. Run the bring-up test\n\n"
        "Before the first game, check what you soldered: hold **roll** while you power the "
        "board on (let go when the first pixel lights), or from a computer:\n\n"
        "```sh\n.venv/bin/cheeseboard selftest --port /dev/ttyACM0\n```\n\n"
        "The board lights each pixel in turn in red, then green, then blue: a pixel in the "
        "wrong colour means a wrong `led.order` in the profile, a dark one a dead pixel (or a "
        "break in the data line just before it). Then every pixel white for a second and a "
        "half, through the power limiter: the report gives what the panel would draw "
        "unlimited and the budget it is held to (the host adds whether the profile's supply "
        "covers it). Then it asks for each button in turn, prev, next, ok, back, roll: the die "
        "column shows which (one pixel for prev, five for roll) and `cheeseboard selftest` "
        "says its name; press it once. Another button pressed instead (two pins swapped), "
        "one held down from the start (stuck), one push that gives two presses (bouncing) or "
        "no press in 10 s is reported by name. At the end the status light is green (no "
        "faults) or red; press any button to go back to the menu. `cheeseboard selftest` "
        "prints the report as it comes and saves it (`selftest-PROFILE.txt`, or `--out "
        "FILE`); it exits with status 1 when there were faults.\n\n"
        "## 6. Play\n\n"
        "Lay the grid on the panel, the overlay on the grid (the crosses on the panel's "
        "corners), close the case and power the board: it starts in its menu, and "
        "[Playing](../docs/playing.md) says the rest.\n\n"
        "## Try it first on the virtual board\n\n"
        "`cheeseboard sim --profile NAME` runs the firmware with that profile on the "
        "MicroPython VM, its heap capped to the profile's `heap`; "
        "`cheeseboard profile check` checks every profile.\n\n"
        "A profile's `heap` is its board's own heap mapped onto that VM, the unix port, which "
        "is 64-bit: the firmware's live heap there is 1/0.64 of a 32-bit board's "
        "(`tests/bench/bench_heap.py`). The `esp32` and `circuitpython` figures are their "
        "boards' heaps divided by 0.64 (each profile's notes give the source: an ESP32 on "
        "MicroPython 1.22 or later has 111 936 B, CircuitPython 9 on a Pico W 126 112 B); the "
        "Pico profiles keep the Pico's own 200 000 B, a stricter test by choice. "
        "`tests/hardware/test_vboard_profile_heap.py` syncs tables, starts and abandons every "
        "game a profile offers and restarts it, at the profile's heap.\n")
    return "".join(out)


# -- SVG --------------------------------------------------------------------------------


def positions(profile):
    """(column, row) of every pixel, row 0 at the bottom, as the matrix is wired."""
    m = profile["matrix"]
    pos = []
    for i in range(profile["led"]["count"]):
        row, col = divmod(i, m["width"])
        if m.get("serpentine") and row % 2:
            col = m["width"] - 1 - col
        pos.append((col, row))
    return pos


def roles(profile, game):
    """{pixel: (label, fill)} for one game's overlay."""
    out = {}
    for sid, pixels in profile["maps"][game].items():
        for px in pixels:
            out[px] = (sid, "#cfe3f7")
    for j, px in enumerate(profile["die"]):
        out[px] = ("die %d" % (j + 1), "#eeeeee")
    for j, px in enumerate(profile["seats"]):
        out[px] = ("seat %d" % (j + 1), "#ffd9a8")
    for j, px in enumerate(profile.get("meter", ())):
        out[px] = ("meter %d" % (j + 1), "#d6f0c8")
    out[profile["status"]] = ("status", "#ffb3b3")
    return out


def _svg(width, height, name, body):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'font-family="sans-serif">\n%s<rect width="100%%" height="100%%" fill="white"/>\n'
            '%s</svg>\n' % (width, height, SVG_NOTE % name, "".join(body)))


def _text(x, y, s, size=12, anchor="middle", weight="normal"):
    return ('<text x="%d" y="%d" font-size="%d" text-anchor="%s" font-weight="%s">%s</text>\n'
            % (x, y, size, anchor, weight, escape(str(s))))


def layout_svg(profile):
    m = profile["matrix"]
    games = sorted(profile["maps"])
    panel_w = m["width"] * CELL + 40
    height = m["height"] * CELL + 70
    body = []
    pos = positions(profile)
    for k, game in enumerate(games):
        x0 = 20 + k * panel_w
        body.append(_text(x0, 24, "%s: %s overlay (LED numbers; pixel 0 is DIN)"
                          % (profile["name"], game), 14, "start", "bold"))
        role = roles(profile, game)
        for px, (col, row) in enumerate(pos):
            x = x0 + col * CELL
            y = 40 + (m["height"] - 1 - row) * CELL
            label, fill = role.get(px, ("", "#f7f7f7"))
            body.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#555"/>\n'
                        % (x, y, CELL - 2, CELL - 2, fill))
            body.append(_text(x + CELL // 2, y + 22, px, 15, weight="bold"))
            body.append(_text(x + CELL // 2, y + 40, label, 10))
    return _svg(20 + len(games) * panel_w, height, profile["name"], body)


def wiring_svg(profile):
    buttons = profile["buttons"]
    names = sorted(buttons, key=lambda n: str(buttons[n]))
    height = 170 + 36 * (len(names) + 1)  # a row per pin, then the supply's line below
    supply = SUPPLY_PIN[profile["platform"]]
    body = [_text(20, 24, "%s: %s" % (profile["name"], profile["title"]), 13, "start", "bold")]
    # The controller, its pins down the right side.
    body.append('<rect x="40" y="50" width="220" height="%d" fill="#e8f0e0" stroke="#333"/>\n'
                % (height - 80))
    body.append(_text(150, 75, profile["mcu"], 14, weight="bold"))
    body.append(_text(150, 93, profile["platform"], 11))
    rows = [("led", pin_name(profile, profile["led"]["pin"]))]
    rows += [(n, pin_name(profile, buttons[n])) for n in names]
    for j, (what, pin) in enumerate(rows):
        y = 130 + 36 * j
        body.append(_text(250, y + 4, pin, 12, "end"))
        body.append('<line x1="260" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>\n'
                    % (y, 470 if what == "led" else 380, y, "#2a7" if what == "led" else "#333"))
        if what == "led":
            body.append('<rect x="470" y="%d" width="180" height="40" fill="#fff3c4" '
                        'stroke="#333"/>\n' % (y - 20))
            body.append(_text(560, y - 2, "level shifter + 330 ohm", 11))
            body.append(_text(560, y + 13, "to matrix DIN", 11))
            body.append('<line x1="650" y1="%d" x2="700" y2="%d" stroke="#2a7" '
                        'stroke-width="2"/>\n' % (y, y))
        else:
            body.append('<circle cx="390" cy="%d" r="9" fill="white" stroke="#333"/>\n' % y)
            body.append(_text(410, y + 4, "%s button to GND" % what, 12, "start"))
    mx = 700
    body.append('<rect x="%d" y="50" width="220" height="120" fill="#dde7ff" stroke="#333"/>\n'
                % mx)
    led = profile["led"]
    body.append(_text(mx + 110, 80, "WS2812B x %d (%s)" % (led["count"], led["order"]), 13,
                      weight="bold"))
    body.append(_text(mx + 110, 100, "DIN, 5V, GND; 1000 uF across 5V", 11))
    body.append(_text(mx + 110, 118, "budget %d mA" % led["budget_ma"], 11))
    s = profile["supply"]
    body.append('<rect x="%d" y="200" width="220" height="70" fill="#ffe0e0" stroke="#333"/>\n'
                % mx)
    body.append(_text(mx + 110, 228, "%s V %s A supply" % (s["volts"], s["amps"]), 13,
                      weight="bold"))
    body.append(_text(mx + 110, 248, "5 V to matrix and %s; GND to all" % supply, 11))
    body.append('<line x1="%d" y1="200" x2="%d" y2="170" stroke="#c00" stroke-width="3"/>\n'
                % (mx + 110, mx + 110))
    body.append('<path d="M %d 270 L %d %d L 150 %d L 150 %d" fill="none" stroke="#c00" '
                'stroke-width="3"/>\n' % (mx + 110, mx + 110, height - 10, height - 10,
                                          height - 30))
    return _svg(mx + 240, height, profile["name"], body)
