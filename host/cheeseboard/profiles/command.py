"""`cheeseboard profile check|docs`: the hardware profiles checked as a board checks them, and the
hardware/ docs drawn from them."""

import sys

from cheeseboard import paths

HELP = "check the hardware profiles, or regenerate hardware/ docs"


def add_parser(sub):
    p = sub.add_parser("profile", help=HELP, description=HELP)
    p.add_argument("action", choices=("check", "docs"),
                   help="check: as a board checks them at boot; docs: rewrite "
                        "hardware/'s README, parts list and diagrams")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="profiles to check (default: all in hardware/profiles)")
    p.set_defaults(run=do_profile, interrupted="nothing on a board was touched")


def do_profile(args):
    """Check the hardware profiles, or regenerate the docs made from them."""
    from cheeseboard.profiles import hardware

    if args.action == "docs":
        for path in hardware.write_docs():
            print("wrote %s" % path.relative_to(paths.ROOT))
        return 0
    bad = 0
    for name, errors in hardware.check_all(args.names).items():
        for e in errors:
            print("%s: %s" % (name, e), file=sys.stderr)
        bad += bool(errors)
        if not errors:
            print("%s: ok" % name)
    return 1 if bad else 0

