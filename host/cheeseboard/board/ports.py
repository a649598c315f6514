"""Finding the board's serial port by its USB ids, and saying how to install MicroPython on it.

`cheeseboard flash` and `cheeseboard info` take `--port`; without it, `find_port` picks the one
known board among pyserial's `serial.tools.list_ports.comports()`, asks which if there are
several, or raises `PortError` saying what to do.
"""

import os
from pathlib import Path

from cheeseboard import CheeseboardError

# (vid, pid or None for any, name, kind). kind is "micropython" (runs MicroPython),
# "bridge" (a USB-serial chip: probably an ESP32 board), "circuitpython" or "bootloader"
# (a drive, not a serial port). The first match wins, so a specific pid goes before a None.
USB_IDS = (
    # MicroPython's own ids on the RP2040 (Pico, Pico W and most clones)
    (0x2E8A, 0x0005, "Raspberry Pi Pico", "micropython"),
    (0x2E8A, 0x0003, "Raspberry Pi RP2040 in BOOTSEL mode", "bootloader"),
    # the serial unit built into ESP32-C3/S3/C6: no clue yet what firmware runs behind it
    (0x303A, 0x1001, "Espressif USB JTAG/serial", "bridge"),
    # Espressif's TinyUSB default for a CDC-only device, used by MicroPython on ESP32-S2/S3
    (0x303A, 0x4001, "Espressif ESP32 native USB", "micropython"),
    (0x10C4, 0xEA60, "Silicon Labs CP210x", "bridge"),
    (0x1A86, 0x7523, "WCH CH340", "bridge"),
    (0x1A86, 0x55D4, "WCH CH9102", "bridge"),
    (0x0403, 0x6001, "FTDI FT232R", "bridge"),
    (0x239A, None, "Adafruit board", "circuitpython"),
)

KIND_LABELS = {
    "micropython": "MicroPython",
    "bridge": "USB-serial, probably an ESP32 board",
    "circuitpython": "CircuitPython",
    "bootloader": "bootloader: a drive, not a serial port",
}

DOWNLOAD = "https://micropython.org/download/"
RASPBERRY_PI_VID = 0x2E8A
ESPRESSIF_VID = 0x303A


# The install steps, by family; %(port)s is the board's serial port.
_PICO_STEPS = (
    "Hold BOOTSEL while plugging it in (or run `mpremote connect %(port)s bootloader`),\n"
    "then copy the RPI_PICO .uf2 (RPI_PICO_W for a Pico W) from " + DOWNLOAD + "RPI_PICO/\n"
    "onto the RPI-RP2 drive that appears; the Pico restarts as a serial port.\n"
    "(In BOOTSEL mode it is USB 2e8a:0003: a drive, not a serial port.)"
)
_BOOTSEL_STEPS = (
    "a Raspberry Pi RP2040 in BOOTSEL mode (USB 2e8a:0003) is a drive named RPI-RP2,\n"
    "not a serial port. To install MicroPython, copy the RPI_PICO .uf2 (RPI_PICO_W for\n"
    "a Pico W) from " + DOWNLOAD + "RPI_PICO/ onto that drive;\n"
    "the Pico restarts as a serial port."
)
_ESP32_STEPS = (
    "Use esptool (pip install esptool):\n"
    "  esptool.py --port %(port)s erase_flash\n"
    "  esptool.py --port %(port)s --baud 460800 write_flash 0x1000 ESP32_GENERIC-<version>.bin\n"
    "firmware: " + DOWNLOAD + "ESP32_GENERIC/ (another chip, such as an ESP32-S3 or an\n"
    "ESP8266, has its own firmware and offset: " + DOWNLOAD + ")"
)
# The chips with native USB (S3, C3, C6) start their image at 0, not at 0x1000 like the ESP32.
_ESP32_NATIVE_STEPS = (
    "Use esptool (pip install esptool):\n"
    "  esptool.py --port %(port)s erase_flash\n"
    "  esptool.py --port %(port)s --baud 460800 write_flash 0 ESP32_GENERIC_S3-<version>.bin\n"
    "take the firmware of your chip (ESP32_GENERIC_S3, ESP32_GENERIC_C3, ...) and check its\n"
    "offset on its page at " + DOWNLOAD + " (an ESP32-S2 uses 0x1000)"
)
_CIRCUITPYTHON_STEPS = (
    "%(port)s is an Adafruit board, probably running CircuitPython. This tool flashes\n"
    "MicroPython boards; using it with CircuitPython is out of scope (with CircuitPython, copy\n"
    "your code onto the CIRCUITPY drive). To use this tool, install MicroPython for the board\n"
    "from " + DOWNLOAD + " (some Adafruit boards run MicroPython with these USB ids already)."
)


class PortError(CheeseboardError):
    """No board, several boards and no way to ask, or a bad choice; the message says what to do."""


def boards(ports=None):
    """The ports whose USB ids are a known board or ESP32 bridge, sorted by device.

    `ports` defaults to `serial.tools.list_ports.comports()`. A bootloader is left out: it is
    a drive, so there is nothing to open.
    """
    if ports is None:
        ports = _comports()
    found = [p for p in ports if _kind(p) not in (None, "bootloader")]
    return _by_device(found)


def describe(info):
    """One line: the device, what it is, its serial number if it has one."""
    entry = _lookup(info)
    if entry:
        what = "%s (%s)" % (entry[2], KIND_LABELS[entry[3]])
    else:
        what = info.description if info.description not in (None, "", "n/a") else "unknown"
        if info.vid is not None:
            what += " (USB %s)" % _ids(info)
    line = "%s  %s" % (info.device, what)
    if info.serial_number:
        line += "  serial %s" % info.serial_number
    return line


def find_port(port=None, ask=None, ports=None):
    """The device to open: `port` if given, else the one board, else the one `ask` picks.

    `ask(prompt) -> answer` (e.g. `input`) is called only when there are several boards; it
    may be answered with the list's number or the device path.
    """
    if port:
        return port
    if ports is None:
        ports = _comports()
    found = boards(ports)
    if len(found) == 1:
        return found[0].device
    if not found:
        raise PortError(_none_found(ports))
    listing = "\n".join("  %d. %s" % (i, describe(p)) for i, p in enumerate(found, 1))
    if ask is None:
        raise PortError(
            "several boards found:\n%s\npick one with --port, e.g. --port %s"
            % (listing, found[0].device)
        )
    try:
        answer = ask(
            "several boards found:\n%s\nwhich one? [1-%d or device]: " % (listing, len(found))
        )
    except EOFError:
        raise PortError("no answer: pick a board with --port") from None
    return _choose(answer.strip(), found)


def install_hint(info=None):
    """How to install MicroPython on the board `info` (a comports() entry), by its USB ids."""
    entry = _lookup(info) if info is not None else None
    if entry is None:
        steps = "find your board at %s and follow its install steps" % DOWNLOAD
        return steps if info is None else "not a known board: %s\n%s" % (describe(info), steps)
    vid, _, name, kind = entry
    if kind == "bootloader":
        return _BOOTSEL_STEPS
    if kind == "circuitpython":
        return _CIRCUITPYTHON_STEPS % {"port": info.device}
    if vid == RASPBERRY_PI_VID:
        steps = _PICO_STEPS
    elif vid == ESPRESSIF_VID:
        steps = _ESP32_NATIVE_STEPS
    else:
        steps = _ESP32_STEPS
    if kind == "micropython":
        head = "%s at %s runs MicroPython already. To reinstall it:\n" % (name, info.device)
    else:
        head = "%s at %s (%s). To install MicroPython:\n" % (name, info.device, KIND_LABELS[kind])
    return head + steps % {"port": info.device}


def _lookup(info):
    """The USB_IDS entry matching the port's vid/pid, or None."""
    for entry in USB_IDS:
        vid, pid = entry[:2]
        if info.vid == vid and pid in (None, info.pid):
            return entry
    return None


def _kind(info):
    entry = _lookup(info)
    return entry[3] if entry else None


def _ids(info):
    return "%04x:%04x" % (info.vid or 0, info.pid or 0)


def bootsel_picos(root=None):
    """A Pico in BOOTSEL mode is no serial port: (how many are on the USB bus, the folders
    where a drive of theirs is mounted, known by its INFO_UF2.TXT), read from Linux's
    /sys/bus/usb/devices and /proc/mounts under root ($CHEESEBOARD_SYSTEM_ROOT, else /)."""
    root = Path(root or os.environ.get("CHEESEBOARD_SYSTEM_ROOT", "/"))
    count = 0
    for device in (root / "sys" / "bus" / "usb" / "devices").glob("*"):
        try:
            ids = [(device / n).read_text().strip().lower() for n in ("idVendor", "idProduct")]
        except OSError:
            continue
        count += ids == ["2e8a", "0003"]
    mounted = []
    try:
        mounts = (root / "proc" / "mounts").read_text().splitlines()
    except OSError:
        mounts = []
    for line in mounts:
        fields = line.split()
        if len(fields) > 1:
            folder = fields[1].replace("\\040", " ")
            if (root / folder.lstrip("/") / "INFO_UF2.TXT").is_file():
                mounted.append(folder)
    return count, mounted


def _bootsel_only():
    """The one line for a Pico in BOOTSEL mode and no board: what to do with it, or None."""
    count, mounted = bootsel_picos()
    if not count:
        return None
    if mounted:
        return ("no board found, but a Pico in BOOTSEL mode, its drive at %s: copy a UF2 "
                "onto it (`cheeseboard uf2` builds one), then flash the Pico it starts as"
                % mounted[0])
    return ("no board found, but a Pico in BOOTSEL mode whose drive is not mounted: mount it "
            "(udisksctl mount -b /dev/disk/by-label/RPI-RP2), copy a UF2 onto it (`cheeseboard "
            "uf2` builds one), then flash the Pico it starts as")


def _none_found(ports):
    """The message for no board: what to do, and what is plugged in that is not a board."""
    bootsel = _bootsel_only()  # (what else is plugged in does not matter then)
    if bootsel:
        return bootsel
    lines = ["no board found: plug it in with a data USB cable, or give --port PORT"]
    others = _by_device(ports)
    if others:
        lines.append("serial ports present, none a known board:")
        lines.extend("  " + describe(p) for p in others)
    # a Pico in BOOTSEL mode is plugged in but waiting for firmware: say how to give it some
    lines.extend(install_hint(p) for p in others if _kind(p) == "bootloader")
    return "\n".join(lines)


def _choose(answer, found):
    """The device `answer` names: its number in the list or its path."""
    if answer.isdigit() and 1 <= int(answer) <= len(found):
        return found[int(answer) - 1].device
    for p in found:
        if answer == p.device:
            return p.device
    raise PortError(
        "no board %r: answer 1-%d or one of %s"
        % (answer, len(found), ", ".join(p.device for p in found))
    )


def why_not(port, baud):
    """pyserial's own reason that port does not open (mpremote's message drops it); None when
    it opens."""
    import serial

    try:
        serial.Serial(port, baud, exclusive=True).close()
    except (serial.SerialException, OSError, ValueError) as e:
        return e
    return None


def port_problem(port, error):
    """The one message for a port that does not open, whichever command tried: what to do."""
    text = str(error)
    if "No such file" in text or "Errno 2]" in text:
        return ("cannot open %s: no such port (is the board plugged in? without --port the "
                "board is found by its USB ids)" % port)
    if "exclusively lock" in text or "Errno 16]" in text:  # pyserial's flock, or EBUSY
        return ("%s is busy: another program has it open (close mpremote, a serial terminal, "
                "or `cheeseboard sim`'s view)" % port)
    if "Inappropriate ioctl" in text or "(25," in text or "Errno 25]" in text:
        return ("cannot open %s: not a serial port (give the board's port, e.g. /dev/ttyACM0, "
                "or leave out --port to find the board by its USB ids)" % port)
    if "Permission denied" in text or "Errno 13]" in text:
        return ("cannot open %s: permission denied (on Linux, add yourself to the dialout "
                "group: sudo usermod -aG dialout $USER, then log in again)" % port)
    return "cannot open %s: %s" % (port, text)


def _comports():
    """pyserial's list of the serial ports there are (imported only to look: it costs every
    other `cheeseboard` command tens of ms at start)."""
    import serial.tools.list_ports

    return serial.tools.list_ports.comports()


def _by_device(ports):
    """ports sorted by device: /dev/ttyACM2 before /dev/ttyACM10, COM3 before COM10."""
    from serial.tools.list_ports_common import numsplit

    return sorted(ports, key=lambda p: numsplit(p.device))
