"""`cheeseboard overlay` and `cheeseboard cad`: the overlays to print and the grid and case's
STLs, for each profile and each game it offers, into hardware/build/PROFILE/."""

from cheeseboard import paths

OVERLAY_HELP = "write each game's overlay to print at 1:1 (SVG, and PDF tiled on A4 and Letter)"
CAD_HELP = "export the dividing grid, the case and its back as STLs (OpenSCAD)"


def add_parser(sub):
    p = sub.add_parser("overlay", help=OVERLAY_HELP, description=OVERLAY_HELP)
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="the games (default: every game the profile offers)")
    p.add_argument("--profile", action="append", metavar="NAME",
                   help="a profile in hardware/profiles (default: every one)")
    p.add_argument("--page", action="append", metavar="SIZE",
                   help="the paper: A4, Letter or WIDTHxHEIGHT in mm (default: A4 and Letter)")
    p.add_argument("--rules", metavar="FILE",
                   help="the rule table the board plays (as `cheeseboard rules sync` sends "
                        "it) for the one GAME given (default: firmware/rules/GAME.json)")
    p.add_argument("--out", metavar="DIR", help="where to write (default: hardware/build)")
    p.set_defaults(run=do_overlay, interrupted="what was written is whole; the rest is not")
    p = sub.add_parser("cad", help=CAD_HELP, description=CAD_HELP)
    p.add_argument("--profile", action="append", metavar="NAME",
                   help="a profile in hardware/profiles (default: every one)")
    p.add_argument("--out", metavar="DIR", help="where to write (default: hardware/build)")
    p.set_defaults(run=do_cad, interrupted="what was written is whole; the rest is not")
    from cheeseboard.kit import bringup

    bringup.add_parser(sub)


def _profiles(names):
    """The named profiles, each checked as a board checks it: a bad one stops everything."""
    from cheeseboard.kit.panel import PanelError, layout
    from cheeseboard.profiles import hardware

    known = paths.profile_names()
    out = []
    for name in names or known:
        if name not in known:
            raise PanelError("--profile: expected one of %s, got %r" % (", ".join(known), name))
        profile = paths.load_profile(name)
        errors = hardware.check_profile(profile, name)
        if errors:
            raise PanelError("%s: %s" % (name, errors[0]))
        try:
            out.append((profile, layout(profile)))
        except PanelError as e:
            raise PanelError("%s: %s" % (name, e)) from None
    return out


def _out(args):
    from pathlib import Path

    return Path(args.out) if args.out else paths.ROOT / "hardware" / "build"


def overlay_files(profile, lay, games, pages, table=None):
    """{file name: bytes} of every overlay asked for (table: the one game's rule table, else
    the firmware's); PanelError before anything is made."""
    from cheeseboard.kit import overlay
    from cheeseboard.kit import pages as paper
    from cheeseboard.kit.panel import PanelError

    for game in games:
        if game not in profile["maps"]:
            raise PanelError("%s: GAME: expected one of %s, got %r"
                             % (profile["name"], ", ".join(sorted(profile["maps"])), game))
    files = {}
    for game in games or sorted(profile["maps"]):
        files["%s.svg" % game] = overlay.svg(lay, profile, game, table).encode()
        body = overlay.body(lay, profile, game, table)
        for page in pages:
            files["%s-%s.pdf" % (game, page)] = paper.pdf(paper.page_svgs(lay, body, page))
    return files


def _shown(path):
    """A path as the user reads it: from the checkout when it is in it."""
    try:
        return path.resolve().relative_to(paths.ROOT)
    except ValueError:
        return path


def _write(folder, files):
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        tmp = folder / (name + ".part")
        tmp.write_bytes(data)
        tmp.replace(folder / name)
        print("wrote %s" % _shown(folder / name))


def _table(args):
    """The rule table in --rules, for the one game named, checked as `cheeseboard rules check`
    checks it."""
    import json
    from pathlib import Path

    from cheeseboard.kit.panel import PanelError
    from cheeseboard.rules.check import check_file

    if len(args.games) != 1:
        raise PanelError("--rules: name the one GAME it is the table of")
    errors = check_file(args.rules, args.games[0])
    if errors:
        raise PanelError("--rules: %s: %s" % (args.rules, errors[0]))
    return json.loads(Path(args.rules).read_text(encoding="utf-8"))


def do_overlay(args):
    from cheeseboard.kit import pages as paper

    pages = args.page or ["A4", "Letter"]
    for page in pages:
        paper.page_size(page)
    table = _table(args) if args.rules else None
    chosen = _profiles(args.profile)
    made = [(lay.name, overlay_files(profile, lay, args.games, pages, table))
            for profile, lay in chosen]
    for name, files in made:
        _write(_out(args) / name, files)
    return 0


def do_cad(args):
    from cheeseboard.kit import cad
    from cheeseboard.kit.guide import plan_groups

    cad.openscad()
    chosen = _profiles(args.profile)
    drawn = [p["name"] for p, _ in plan_groups([p for p, _ in _profiles(None)])]
    for _, lay in chosen:
        folder = _out(args) / lay.name
        folder.mkdir(parents=True, exist_ok=True)
        for part in cad.PARTS:
            print("wrote %s" % _shown(cad.export(lay, part, folder / ("%s.stl" % part))))
        plan = folder / "plan.svg"
        if args.out is None and lay.name in drawn:  # the build guide's picture of it
            plan = paths.ROOT / "hardware" / "diagrams" / ("%s-plan.svg" % lay.name)
        print("wrote %s" % _shown(cad.export(lay, "plan", plan)))
    return 0
