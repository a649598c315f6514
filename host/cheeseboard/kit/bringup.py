"""`cheeseboard selftest`: a freshly built board's bring-up test, run from the host.

The board walks its chain in red, green and blue, lights every pixel white through its power
limiter, then asks for each button in turn (firmware/cheesefw/selftest.py); this follows it,
says what to press, adds what only the host knows (the supply against the budget, from the
profile) and saves the report.
"""

import time

from cheeseboard import CheeseboardError, paths

HELP = "run a board's bring-up test: its LED chain, power and buttons; saves the report"
POLL_S = 0.2
CONTROLLER_MA = 100  # the controller's own, beside the LEDs (hardware/README.md, Power)


def add_parser(sub):
    from cheeseboard.board.connect import PORT_HELP

    p = sub.add_parser("selftest", help=HELP, description=HELP)
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--out", metavar="FILE",
                   help="where to save the report (default: selftest-PROFILE.txt here)")
    p.set_defaults(run=do_selftest, interrupted="the board may still be in its self-test: "
                                                 "press a button once it is done, or power it "
                                                 "off and on")


def supply_line(profile_name):
    """The supply against the LED budget, from the host's copy of the profile (None when the
    host has no profile of that name)."""
    if profile_name not in paths.profile_names():
        return None
    p = paths.load_profile(profile_name)
    s, budget = p["supply"], p["led"]["budget_ma"]
    need = budget + CONTROLLER_MA
    have = int(s["amps"] * 1000)
    verdict = "enough" if have >= need else "FAULT too little"
    return ("supply: %s V %s A (%d mA) for the LED budget %d mA and the controller's %d mA: %s"
            % (s["volts"], s["amps"], have, budget, CONTROLLER_MA, verdict))


def do_selftest(args):
    from cheeseboard.board.connect import open_client

    with open_client(args.port) as client:
        profile = client.request("hello").get("profile")
        report = client.request("selftest", start=True)
        shown = 0
        while True:
            for line in report["lines"][shown:]:
                print(line, flush=True)
            shown = len(report["lines"])
            if report["done"]:
                break
            time.sleep(POLL_S)
            report = client.request("selftest")
        client.request("selftest", end=True)
    lines = list(report["lines"])
    faults = report["faults"]
    extra = supply_line(profile)
    if extra:
        print(extra)
        lines.append(extra)
        faults += "FAULT" in extra
    out = args.out or "selftest-%s.txt" % profile
    from pathlib import Path

    path = Path(out)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text("".join(line + "\n" for line in lines))
    tmp.replace(path)
    print("saved the report in %s" % path)
    if faults:
        raise CheeseboardError("the self-test found %d fault%s (see %s)"
                               % (faults, "" if faults == 1 else "s", path))
    return 0
