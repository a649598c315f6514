"""Playing scenarios: a virtual board per file, the steps in order, the first failure reported
with what was expected, what the board showed, and a picture of that moment."""

import json
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cheeseboard.board.protocol import ProtocolError
from cheeseboard.scenario import format as fmt
from cheeseboard.scenario import pictures
from cheeseboard.scenario.board import BoardOff, BoardTimeout, ScenarioBoard

SNAPSHOT_WITHIN_MS = 1000  # a blinking board shows each of its pictures within this
POLL_MS = 100  # the board's time between two questions while a state is waited for
SNAPSHOT_TOLERANCE = 8  # how far each of a pixel's R, G, B may be from the reference picture's


@dataclass
class Result:
    path: Path
    name: str = ""
    passed: bool = False
    steps: int = 0  # steps played
    seconds: float = 0.0
    failure: str = ""  # the one line that says why
    step: int = 0  # the number of the step that failed (0: the file itself, or the start)
    picture: Path | None = None  # the board at the moment of failure

    def line(self):
        if self.passed:
            return "PASS %s (%s): %d steps in %.1fs" % (self.path, self.name, self.steps,
                                                          self.seconds)
        return "FAIL %s%s: %s" % (self.path, " (%s)" % self.name if self.name else "",
                                  self.failure)


class StepFailed(Exception):
    def __init__(self, expected, shown):
        super().__init__("expected %s; the board showed %s" % (expected, shown))


# What ends a scenario at a step: each says what went wrong in one line.
STEP_ERRORS = (StepFailed, BoardTimeout, BoardOff, ProtocolError, OSError, pictures.NoPicture)


@dataclass
class Options:
    update_snapshots: bool = False
    out: Path | None = None  # where snapshots and failure pictures go (default: failures_folder())
    target: str = "unix"  # the board: the unix port's virtual board, or an emulated Pico


def run_all(files, jobs=None, options=None, on_result=None):
    """Every file's Result, in the order given; the boards run in parallel, up to jobs.
    on_result(result) is called for each, in that order, as soon as it is known."""
    options = options or Options()
    jobs = max(1, min(len(files), jobs or os.cpu_count() or 1))
    results = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(lambda f: run_file(f, options), files):
            results.append(result)
            if on_result:
                on_result(result)
    return results


def run_file(path, options=None):
    options = options or Options()
    path = Path(path)
    try:
        scenario = fmt.load(path)
    except fmt.ScenarioError as e:
        return Result(path=path, failure=str(e).removeprefix("%s: " % path))
    except Exception as e:  # noqa: BLE001 - one file's trouble must not stop the others
        return Result(path=path, failure="the runner could not read it: %s: %s"
                      % (type(e).__name__, e))
    return play(scenario, options)


def play(scenario, options):
    result = Result(path=scenario.path, name=scenario.name)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cheeseboard-scenario-") as tmp:
        board = None
        step = None
        try:
            board = ScenarioBoard(scenario, Path(tmp), options.target)
            player = _Player(scenario, board, options)
            for f in scenario.sync:
                player.sync(f)
            for step in scenario.steps:
                player.play(step)
                result.steps += 1
            result.passed = True
        except Exception as e:  # noqa: BLE001 - one scenario's trouble must not stop the others
            title = step.title() if step else "the start"
            if isinstance(e, BoardTimeout):
                why = "timed out: %s" % e
            elif isinstance(e, BoardOff):
                why = "expected %s" % e
            elif isinstance(e, STEP_ERRORS):
                why = str(e)
            else:
                why = "the runner failed here: %s: %s" % (type(e).__name__, e)
            result.failure = "%s: %s" % (title, why)
            result.step = step.number if step else 0
            if board is not None:
                result.picture = _failure_picture(scenario, board, result.step, options)
                if result.picture:
                    result.failure += "; snapshot: %s" % result.picture
        finally:
            if board is not None:
                board.close()
    result.seconds = time.monotonic() - began
    return result


def failures_folder():
    """Where failure pictures go without --out: a scratch folder, never beside the scenario
    (a checkout's scenarios are kept in git, and a failure is not a file to keep)."""
    return Path(tempfile.gettempdir()) / "cheeseboard-scenarios"


def _failure_picture(scenario, board, number, options):
    folder = options.out or failures_folder()
    path = folder / ("%s.step%d.failed.svg" % (scenario.path.stem, number))
    try:
        data = pictures.draw(scenario.profile, scenario.game, board.frame, scenario.table, ".svg")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except (pictures.NoPicture, OSError):  # the failure itself is what the line must say
        return None
    return path


class _Player:
    """Plays one scenario's steps on its board."""

    def __init__(self, scenario, board, options):
        self.scenario = scenario
        self.board = board
        self.options = options
        self.pressed_at = None  # when the last button step began, and the refusals then
        self.refused_before = None
        self.console_mark = 0  # expect-console looks at the console from here on

    def play(self, step):
        getattr(self, "do_" + step.kind.replace("-", "_"))(**step.args)

    # -- buttons ---------------------------------------------------------------------------------

    def do_press(self, buttons, ms):
        state = self.board.state()
        self.pressed_at = self.board.now()
        self.refused_before = state.get("refused")
        for b in buttons:
            self.board.press(b, ms)

    do_hold = do_press_many = do_press

    def do_wait(self, ms):
        self.board.run(ms)

    # -- what the board shows --------------------------------------------------------------------

    def do_expect_light(self, label, pixels, within_ms, tolerance, which, colour, colour_name):
        def shows(frame):
            hits = [_near(_rgb(frame, p), colour, tolerance) for p in pixels]
            return all(hits) if which == "all" else any(hits)

        self._expect(lambda frames: shows(frames[-1]), within_ms,
                     "%s %s %s%s" % (label, colour_name, _show(colour), _pm(tolerance)), pixels)

    def do_expect_dark(self, label, pixels, within_ms, tolerance, which):
        self._expect(lambda frames: all(max(_rgb(frames[-1], p)) <= tolerance for p in pixels),
                     within_ms, "%s dark%s" % (label, _pm(tolerance)), pixels)

    def do_expect_blink(self, label, pixels, within_ms, tolerance, which, colour=None,
                        colour_name=None):
        def on(frame):
            if colour is None:
                return any(max(_rgb(frame, p)) > tolerance for p in pixels)
            return all(_near(_rgb(frame, p), colour, tolerance) for p in pixels)

        def blinks(frames):  # on, off, on (or off, on, off): a light that only changes once
            return len(_distinct(on(f) for f in frames)) >= 3  # is not blinking

        what = "%s blinking%s" % (label, " %s %s" % (colour_name, _show(colour)) if colour else "")
        self._expect(blinks, within_ms, what, pixels, every=True)

    def _expect(self, holds, within_ms, expected, pixels, every=False):
        self.board.wait_up()
        frames, held = self.board.watch(holds, within_ms)
        if not held:
            shown = frames if every else frames[-1:]
            raise StepFailed("%s within %gs" % (expected, within_ms / 1000),
                             " then ".join(_distinct(_pixels(f, pixels) for f in shown)))

    def do_expect_state(self, subset, within_ms):
        deadline = self.board.now() + within_ms
        while True:
            state = self.board.state()
            if _contains(state, subset):
                return
            if self.board.now() >= deadline:
                raise StepFailed("state %s within %gs" % (json.dumps(subset), within_ms / 1000),
                                 json.dumps({k: state.get(k) for k in subset}))
            self.board.run(min(POLL_MS, deadline - self.board.now()))

    def do_expect_refused(self, within_ms):
        if self.pressed_at is None:
            raise StepFailed("a refused press", "no press before this step")
        status = self.scenario.profile["status"]
        red = fmt.signal_colours()["refused"]
        self.board.wait_up()
        deadline = self.board.now() + within_ms
        while True:
            flashed = any(_near(_rgb(f, status), red, 16)
                          for f in self.board.frames_since(self.pressed_at))
            refused = self.board.state().get("refused")
            counted = self.refused_before is None or (refused or 0) > self.refused_before
            if flashed and counted and refused is not None:
                return
            if self.board.now() >= deadline:
                break
            self.board.run(min(POLL_MS, deadline - self.board.now()))
        if refused is None:
            shown = "its menu, which refuses nothing"
        else:
            shown = "%d refused presses (before the press: %d), the status light %s" % (
                refused, self.refused_before or 0, "flashed red" if flashed else "never red")
        raise StepFailed("the last press refused (status light red, one more refusal)", shown)

    def do_expect_console(self, pattern, within_ms):
        """A line of the board's serial output (since the last line this step matched, or the
        start) matches the pattern, within the board's time."""
        board = self.board
        board.need_power()
        deadline = board.now() + within_ms
        while True:
            lines = board.console_since(self.console_mark).split(b"\n")
            offset = 0
            for raw in lines[:-1]:  # whole lines only: the last may be still coming
                offset += len(raw) + 1
                if pattern.search(raw.decode("utf-8", "replace").rstrip("\r")):
                    self.console_mark += offset
                    return
            if board.now() >= deadline:
                said = [x.decode("utf-8", "replace").strip() for x in lines if x.strip()][-3:]
                quiet = "nothing %son its console" % ("more " if self.console_mark else "")
                raise StepFailed("a console line matching %r within %gs"
                                 % (pattern.pattern, within_ms / 1000), "; ".join(said) or quiet)
            board.run(min(POLL_MS, deadline - board.now()), "event")

    # -- power, tables, pictures ---------------------------------------------------------------

    def do_power_cut(self):
        self.board.power_cut()

    def do_power_on(self):
        self.board.power_on()

    def do_reset(self):
        self.board.reset()

    def do_sync(self, file):
        self.sync(file)

    def sync(self, file):
        try:
            self.board.sync(file)
        except ProtocolError as e:
            raise StepFailed("the board to take %s" % file.name, "a refusal: %s" % e) from None

    def do_snapshot(self, file, name):
        """The reference picture is the file beside the scenario (kept with it in git): the
        board must show it within a second, each pixel's R, G, B within SNAPSHOT_TOLERANCE
        (a PNG: exactly). Without one, or with --update-snapshots, the picture is written:
        to the reference on an update, else under --out when given."""
        self.board.wait_up()
        scenario = self.scenario

        def picture(frame):
            return pictures.draw(scenario.profile, scenario.game, frame, scenario.table,
                                 file.suffix)

        if file.exists() and not self.options.update_snapshots:
            want = file.read_bytes()
            _, held = self.board.watch(
                lambda frames: any(pictures.same(picture(f), want, SNAPSHOT_TOLERANCE)
                                   for f in frames), SNAPSHOT_WITHIN_MS)
            if not held:
                raise StepFailed("the picture in %s (each colour \u00b1%d)"
                                 % (file, SNAPSHOT_TOLERANCE),
                                 "another (--update-snapshots rewrites the file)")
            return
        path = file
        if self.options.out and not self.options.update_snapshots:
            path = self.options.out / self.scenario.path.stem / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(picture(self.board.frame))


def _rgb(frame, p):
    return tuple(frame[3 * p:3 * p + 3])


def _near(rgb, want, tolerance):
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, want, strict=True))


def _show(rgb):
    return "(%d, %d, %d)" % tuple(rgb)


def _pm(tolerance):
    return " \u00b1%d" % tolerance if tolerance else ""


def _pixels(frame, pixels):
    colours = [_show(_rgb(frame, p)) for p in pixels]
    if len(set(colours)) == 1:
        return colours[0]
    return "[%s]" % ", ".join(colours)


def _distinct(shown, last=6):
    """What the light showed, each change once (the last few)."""
    out = []
    for s in shown:
        if not out or out[-1] != s:
            out.append(s)
    return out[-last:]


def _contains(actual, subset):
    """Whether actual holds every field of subset (objects compared field by field)."""
    if isinstance(subset, dict):
        return isinstance(actual, dict) and all(
            k in actual and _contains(actual[k], v) for k, v in subset.items())
    return actual == subset
