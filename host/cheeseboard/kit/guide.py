"""The build guide's kit: the overlay pictures and each profile's OpenSCAD file (generated with
the other hardware docs by `cheeseboard profile docs`), and the guide's words about them."""

from cheeseboard.kit import cad, overlay
from cheeseboard.kit.panel import BUTTON_HOLE, PANELS, layout
from cheeseboard.pictures.picture import read_table


def overlay_groups(profiles):
    """[(profile, [other profiles' names], game)]: one overlay picture for the profiles that
    share a panel and a game's map (the others print the same, with their own name on it)."""
    groups = []
    seen = {}
    for p in sorted(profiles, key=lambda p: (p["platform"] != "rp2", p["name"])):  # Picos first
        for game in sorted(p["maps"]):
            key = (repr(p["panel"]), repr(p["matrix"]), game, repr(p["maps"][game]),
                   repr(p["die"]), repr(p["seats"]), p["status"], repr(p.get("meter")))
            if key in seen:
                seen[key][1].append(p["name"])
            else:
                seen[key] = (p, [], game)
                groups.append(seen[key])
    return groups


def files(profiles):
    """{path under hardware/: text}: the overlay pictures and the profiles' OpenSCAD files."""
    out = {}
    for p, _, game in overlay_groups(profiles):
        out["overlays/%s-%s.svg" % (p["name"], game)] = overlay.svg(layout(p), p, game,
                                                                    read_table(game))
    for p in profiles:
        out["cad/%s.scad" % p["name"]] = cad.scad(layout(p))
    return out


def parts(profiles):
    """The guide's words on the LED panels the overlays are drawn for."""
    out = ["The overlays, the grid and the case are drawn for the panel each profile names "
           "(`panel` in its file: outline, pixel pitch, window). Panels they support, as "
           "profiles give them: %s. Another panel: copy a profile, set its `panel`, and "
           "`make overlays hardware` draws everything for it.\n\n"
           "| profile | panel | outline | pitch | window | case (overlay sheet) |\n"
           "| --- | --- | ---: | ---: | ---: | ---: |\n" % PANELS]
    for p in profiles:
        lay = layout(p)
        out.append("| `%s` | %s | %s x %s mm | %s mm | %s mm | %s x %s mm |\n" % (
            p["name"], lay.kind, overlay._f(lay.panel_w), overlay._f(lay.panel_h),
            overlay._f(lay.pitch), overlay._f(lay.window), overlay._f(lay.sheet_w),
            overlay._f(lay.sheet_h)))
    return "".join(out)


def printing(profiles):
    """The guide's step: print the overlays, the grid and the case."""
    out = ["`make overlays` writes each game's overlay for every profile into "
           "`hardware/build/PROFILE/`: `GAME.svg` at 1:1 and `GAME-A4.pdf`, `GAME-Letter.pdf` "
           "(a sheet larger than the page is tiled over several, overlapping by 10 mm, with "
           "dashed lines where the next page lays over). One game, one board, another paper: "
           "`.venv/bin/cheeseboard overlay gouda --profile pico --page 148x210`. Print at "
           "100%% (\"actual size\", not \"fit to page\") and measure the 50 mm bar: it must be "
           "50 mm. Cut along the magenta lines: the sheet's edge, a window over each pixel "
           "that shows something, and the %s mm holes for the buttons (prev, next, ok, back, "
           "roll from left to right). Every space carries its name from the game's rule table "
           "(`firmware/rules/GAME.json`): a table changed there changes the overlay; for a "
           "house table you sync to the board, draw it from that file: `.venv/bin/cheeseboard "
           "overlay gouda --profile pico --rules my-gouda.json`. The crosses go on the panel's "
           "corners.\n\n" % overlay._f(BUTTON_HOLE)]
    for p, others, game in overlay_groups(profiles):
        also = " (also %s)" % ", ".join("`%s`" % o for o in others) if others else ""
        out.append("![%s: %s overlay](overlays/%s-%s.svg)\n" % (p["name"], game, p["name"],
                                                               game))
        out.append("\n*%s, `%s`%s*\n\n" % (overlay.TITLES.get(game, game), p["name"], also))
    out.append(
        "`make hardware` exports, with OpenSCAD (Debian's `openscad`), `grid.stl`, `case.stl` "
        "and `back.stl` for every profile into `hardware/build/PROFILE/`. The model is "
        "[`cad/cheeseboard.scad`](cad/cheeseboard.scad); each profile's file beside it "
        "(`cad/pico.scad`, ...) sets its parameters: the pitch, the walls, the panel's "
        "outline, the buttons' holes and the controller's USB opening. Open it in OpenSCAD "
        "to change one. The grid goes into the case's top opening from inside, a cell over "
        "each pixel (its 1.2 mm walls keep one pixel's light out of the next space), its "
        "foot under the top; its face lies flush with the top. The panel lies under the "
        "grid, LEDs up, held against it by a foam pad or double-sided tape on the back; the "
        "controller lies beside it, its USB socket at the opening in the right wall, the "
        "buttons come up through their holes, and the overlay lies on the grid and the "
        "top. Print the grid "
        "in black or dark PLA (light through a pale wall blurs the spaces), the case and its "
        "back in any colour, 0.2 mm layers, no supports. The plan of each, drawn by "
        "OpenSCAD from the same model (`cheeseboard cad` draws it again):\n\n")
    for p, others in plan_groups(profiles):
        also = " (also %s)" % ", ".join("`%s`" % o for o in others) if others else ""
        out.append("![%s: the case's top and the grid](diagrams/%s-plan.svg)\n\n"
                   "*`%s`%s: the case's top with the panel's opening and the buttons' holes, "
                   "and the grid*\n\n" % (p["name"], p["name"], p["name"], also))
    return "".join(out)


def plan_groups(profiles):
    """[(profile, [other profiles' names])]: one plan for the profiles whose CAD is the same."""
    groups, seen = [], {}
    for p in sorted(profiles, key=lambda p: (p["platform"] != "rp2", p["name"])):
        key = repr(cad.params(layout(p)))
        if key in seen:
            seen[key][1].append(p["name"])
        else:
            seen[key] = (p, [])
            groups.append(seen[key])
    return groups
