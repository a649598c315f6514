# The virtual board's "ROM": what a MicroPython board does between power-on and
# your code, re-enacted on the MicroPython unix port.
#
#   micropython -X heapsize=N vboard.py MODE FLASH_DIR SIDE_OUT_FD SIDE_IN_FD BOARD_NAME \
#       [FS_BYTES [SEED [NOW_MS [HEAP]]]]
#
# NOW_MS puts the board on a clock the host drives (virtual time, simboard.py) from that
# instant; without it the board runs in real time. HEAP is the board's own heap: N is larger
# (vmfiles.ROM_HEAP), and what this ROM does not take of the difference is held back, so that
# the firmware finds HEAP free, as on a board whose ROM is C.
#
# It mounts FLASH_DIR as the board's filesystem, runs boot.py (and main.py when
# MODE is "friendly"), then speaks the friendly REPL, the raw REPL and raw-paste
# mode on stdin/stdout exactly as ports/rp2 + shared/runtime/pyexec.c do.
# A soft reboot ends this process with an exit code; the simulator starts a fresh
# VM (a fresh heap, like the real thing) in the mode the code names.
#
# Ctrl-C (the real board's USB interrupt char) arrives on the side channel: it raises
# KeyboardInterrupt at the firmware's next wait (simboard.py), and reads as a 0x03 byte
# while this REPL waits for input. Code that never waits gets it as SIGINT, but only while
# code runs (run()): the unix port raises it wherever the VM is, and one inside this ROM's
# own work (a compile, a wait for a key) leaves it broken or takes the Ctrl-C out of order.
import sys

EXIT_SOFT_FRIENDLY = 64
EXIT_SOFT_RAW = 65
EXIT_HARD_RESET = 66
EXIT_POWER_OFF = 67

CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 1, 2, 3, 4, 5
PASTE_WINDOW = 128  # bytes per raw-paste flow-control window (as rp2)

_in = sys.stdin.buffer  # non-blocking: the simulator hands over a non-blocking pipe
_out = sys.stdout.buffer
_typed = None  # a poll of the console alone
_waiting = None  # a poll of the console and the side channel
_held_back = None  # the VM's heap beyond the board's that this ROM does not use (hold_back)


def write(s):
    _out.write(s.encode() if isinstance(s, str) else s)


def print_exception(e):
    """Print a traceback as the board does: without this ROM's own frames."""
    import io

    buf = io.StringIO()
    sys.print_exception(e, buf)
    for line in buf.getvalue().split("\n"):
        if "vboard.py" not in line:
            write(line + "\n" if line else "")


def getc():
    """One byte of console input as an int; Ctrl-C reads as 3."""
    global _typed, _waiting
    import simboard  # (loaded at boot, before the flash was mounted)

    if _waiting is None:
        import select

        _typed, _waiting = select.poll(), select.poll()
        _typed.register(_in, select.POLLIN)
        _waiting.register(_in, select.POLLIN)
        _waiting.register(simboard.inp, select.POLLIN)
    while True:
        try:
            if not _typed.poll(0):
                # What was typed before a Ctrl-C is read first: the simulator sends it after.
                simboard.check_interrupt()
                if not _waiting.poll(0):
                    simboard.waiting_for_console()
                    _waiting.poll(-1)
                continue
            b = _in.read(1)
        except KeyboardInterrupt:
            return CTRL_C
        if b is None:
            continue  # woken without data
        if not b:
            # The simulator closed our stdin: the board is being switched off.
            raise SystemExit(EXIT_POWER_OFF)
        return b[0]


def board_input(prompt=""):
    """input() for code run at the REPL, on the non-blocking console."""
    write(prompt)
    line = bytearray()
    while True:
        c = getc()
        if c == CTRL_C:
            raise KeyboardInterrupt
        if c == 13:
            write("\n")
            return line.decode()
        if c in (8, 127):
            if line:
                line.pop()
                write("\x08 \x08")
        elif c >= 32:
            line.append(c)
            _out.write(bytes((c,)))


class SoftReboot(Exception):
    pass


def run(code, env):
    """Run compiled code; the simulator may deliver a Ctrl-C as SIGINT only meanwhile."""
    import simboard

    simboard.send(b"X code")
    try:
        exec(code, env)
    finally:
        simboard.send(b"X rom")


def run_code(source, filename, env, mode="exec"):
    """Compile and run source; print a traceback on error. Raise SoftReboot on SystemExit."""
    try:
        run(compile(source, filename, mode), env)
    except SystemExit:
        # pyexec turns SystemExit into a forced exit, i.e. a soft reboot.
        raise SoftReboot() from None
    except BaseException as e:  # noqa: B036 - a board prints every escape, KeyboardInterrupt too
        print_exception(e)


def run_file(name, env):
    """Run a file from flash if it exists (pyexec_file_if_exists)."""
    try:
        with open(name) as f:
            source = f.read()
    except OSError:
        return
    run_code(source, name, env)


def banner(board):
    impl = sys.implementation
    version = ".".join(str(v) for v in impl.version[:3])
    write('MicroPython v%s; %s\nType "help()" for more information.\n' % (version, board))


def raw_repl(env):
    """The raw REPL; returns the next mode's exit code on a soft reboot, or 'friendly'."""
    write("raw REPL; CTRL-B to exit\n")
    while True:
        write(">")
        line = bytearray()
        while True:
            c = getc()
            if c == CTRL_A:
                if len(line) == 2 and line[0] == CTRL_E:
                    if line[1] == ord("A"):
                        if raw_paste(env):
                            return EXIT_SOFT_RAW
                        break
                    write("R\x00")
                    line = bytearray()
                    continue
                write("raw REPL; CTRL-B to exit\n")
                line = bytearray()
                write(">")
                continue
            if c == CTRL_B:
                write("\n")
                return "friendly"
            if c == CTRL_C:
                line = bytearray()
            elif c == CTRL_D:
                write("OK")
                if not line:
                    write("\n")
                    return EXIT_SOFT_RAW
                if execute_framed(bytes(line), env):
                    return EXIT_SOFT_RAW
                break
            else:
                line.append(c)


def execute_framed(source, env):
    """Run raw-REPL code: output, \\x04, error text, \\x04. True when it asked for a reboot."""
    try:
        try:
            run(compile(source, "<stdin>", "exec"), env)
            write("\x04\x04")
        except SystemExit:
            write("\x04\x04")
            return True
        except BaseException as e:  # noqa: B036 - the host must see every error
            write("\x04")
            print_exception(e)
            write("\x04")
    except KeyboardInterrupt:
        write("\x04\x04")
    return False


def raw_paste(env):
    """Raw-paste mode: flow-controlled upload, then run. True when it asked for a reboot."""
    write("R\x01")
    _out.write(bytes((PASTE_WINDOW & 0xFF, PASTE_WINDOW >> 8)))
    source = bytearray()
    window = PASTE_WINDOW
    while True:
        c = getc()
        if c == CTRL_D:
            break
        if c == CTRL_C:
            # The host gave up: acknowledge like the board's abrupt end.
            write("\x04")
            return False
        source.append(c)
        window -= 1
        if window == 0:
            window = PASTE_WINDOW
            write("\x01")
    write("\x04")
    return execute_framed(bytes(source), env)


def friendly_repl(env, board):
    """The friendly REPL; returns an exit code on a soft reboot, or 'raw'."""
    banner(board)
    pending = []  # lines of a compound statement being entered
    while True:
        write("... " if pending else ">>> ")
        line = bytearray()
        while True:
            c = getc()
            if c == CTRL_C:
                write("\n")
                pending = []
                break
            if not line and not pending and c in (CTRL_A, CTRL_B, CTRL_D):
                write("\n")
                if c == CTRL_A:
                    return "raw"
                if c == CTRL_D:
                    return EXIT_SOFT_FRIENDLY
                banner(board)
                break
            if c == CTRL_E and not line and not pending:
                write("\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\n=== ")
                if paste_mode(env):
                    return EXIT_SOFT_FRIENDLY
                break
            if c in (8, 127):
                if line:
                    line.pop()
                    write("\x08 \x08")
                continue
            if c == 13:
                write("\n")
                text = line.decode()
                if pending or text.rstrip().endswith(":"):
                    pending.append(text)
                    if text.strip():
                        break
                    text = "\n".join(pending)
                    pending = []
                if text.strip():
                    try:
                        run_code(text, "<stdin>", env, "single")
                    except SoftReboot:
                        return EXIT_SOFT_FRIENDLY
                break
            if c >= 32 or c == 9:
                line.append(c)
                _out.write(bytes((c,)))


def paste_mode(env):
    """Friendly paste mode (Ctrl-E): no echo processing, Ctrl-D runs. True to reboot."""
    source = bytearray()
    while True:
        c = getc()
        if c == CTRL_C:
            write("\n")
            return False
        if c == CTRL_D:
            write("\n")
            try:
                run_code(source.decode(), "<stdin>", env)
            except SoftReboot:
                return True
            return False
        if c == 13:
            source.append(10)
            write("\n=== ")
        else:
            source.append(c)
            _out.write(bytes((c,)))


def hold_back(heap):
    """A block that leaves heap bytes free (none for 0, or when the VM has no more than that),
    taken first, so that it lies below all the firmware will hold."""
    import gc

    gc.collect()
    extra = gc.mem_free() - heap - 64  # (the bytearray's own object and its block's rounding)
    return bytearray(extra) if heap and extra > 0 else None


def mount_flash(flash):
    import os

    try:
        os.umount("/")
    except OSError:
        pass
    os.mount(os.VfsPosix(flash), "/")
    os.chdir("/")
    sys.path[:] = ["", "/lib"]


def boot(argv):
    mode, flash, side_out, side_in, board = argv[1], argv[2], argv[3], argv[4], argv[5]
    # The simulator's stand-ins load before the flash hides the host's files.
    import simboard

    fs_size = int(argv[6]) if len(argv) > 6 else 0
    seed = int(argv[7]) if len(argv) > 7 and argv[7] else None
    now = int(argv[8]) if len(argv) > 8 and argv[8] else None
    simboard.connect(int(side_out), int(side_in), board, fs_size, seed, now)
    global _held_back
    _held_back = hold_back(int(argv[9]) if len(argv) > 9 and argv[9] else 0)
    mount_flash(flash)
    import builtins

    builtins.input = board_input
    env = {"__name__": "__main__"}
    try:
        run_file("boot.py", env)
        if mode == "friendly":
            run_file("main.py", env)
    except SoftReboot:
        return EXIT_SOFT_FRIENDLY if mode == "friendly" else EXIT_SOFT_RAW
    except KeyboardInterrupt:
        write("\n")  # Ctrl-C between files: straight to the REPL, as a board does
    while True:
        try:
            nxt = friendly_repl(env, board) if mode == "friendly" else raw_repl(env)
        except KeyboardInterrupt:
            write("\n")
            continue
        if nxt == "raw" or nxt == "friendly":
            mode = nxt
            continue
        write("MPY: soft reboot\n")
        return nxt


sys.exit(boot(sys.argv))
