"""Finding the board's serial port by USB ids, with pyserial's own ListPortInfo entries."""

import subprocess

import installed
import pytest
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from cheeseboard.board import ports
from cheeseboard.board.ports import PortError


def port(device, vid=None, pid=None, serial_number=None, description="n/a"):
    """A comports() entry as pyserial builds it: USB fields set after construction."""
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial_number
    info.description = description
    if vid is not None:
        info.manufacturer, info.product = "Maker", "Board"
    return info


def pico(device="/dev/ttyACM0", serial_number="E6614C311B7F4A2B"):
    return port(device, 0x2E8A, 0x0005, serial_number, "Board in FS mode")


def cp2102(device="/dev/ttyUSB0"):
    return port(device, 0x10C4, 0xEA60, "0001", "CP2102 USB to UART Bridge Controller")


def ttys0():
    return port("/dev/ttyS0")


def never_ask(prompt):
    raise AssertionError("asked with one board or none: %r" % prompt)


def test_one_board_is_found_among_other_ports():
    listed = [ttys0(), pico(), port("/dev/ttyACM1", 0x1234, 0x5678)]
    assert ports.find_port(ask=never_ask, ports=listed) == "/dev/ttyACM0"


def test_boards_keeps_known_ids_sorted_by_device_naturally():
    listed = [pico("/dev/ttyACM10"), ttys0(), cp2102("/dev/ttyUSB0"), pico("/dev/ttyACM2")]
    assert [p.device for p in ports.boards(listed)] == [
        "/dev/ttyACM2",
        "/dev/ttyACM10",
        "/dev/ttyUSB0",
    ]


def test_boards_matches_any_adafruit_pid_and_leaves_out_a_bootloader():
    listed = [port("/dev/ttyACM0", 0x239A, 0x80F4), port("/dev/sdz", 0x2E8A, 0x0003)]
    assert [p.device for p in ports.boards(listed)] == ["/dev/ttyACM0"]


def test_boards_without_ports_lists_comports(monkeypatch):
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [ttys0(), cp2102()])
    assert [p.device for p in ports.boards()] == ["/dev/ttyUSB0"]
    assert ports.find_port() == "/dev/ttyUSB0"


def test_no_board_says_what_to_do_and_lists_unknown_ports():
    listed = [ttys0(), port("/dev/ttyACM3", 0x1234, 0x5678, description="Some Modem")]
    with pytest.raises(PortError) as e:
        ports.find_port(ask=never_ask, ports=listed)
    message = str(e.value)
    assert message.startswith("no board found:")
    assert "data USB cable" in message and "--port" in message
    assert "/dev/ttyS0  unknown" in message
    assert "/dev/ttyACM3  Some Modem (USB 1234:5678)" in message


def test_no_port_at_all_is_short():
    with pytest.raises(PortError) as e:
        ports.find_port(ports=[])
    assert "present" not in str(e.value)


def test_no_board_but_a_pico_in_bootsel_says_how_to_install():
    with pytest.raises(PortError) as e:
        ports.find_port(ports=[port("/dev/sdz", 0x2E8A, 0x0003)])
    assert "BOOTSEL" in str(e.value) and "RPI-RP2" in str(e.value)


def test_several_boards_without_ask_lists_them_and_mentions_port():
    with pytest.raises(PortError) as e:
        ports.find_port(ports=[cp2102(), pico()])
    message = str(e.value)
    assert "  1. /dev/ttyACM0  Raspberry Pi Pico" in message
    assert "  2. /dev/ttyUSB0  Silicon Labs CP210x" in message
    assert "--port /dev/ttyACM0" in message


def test_several_boards_ask_by_number():
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return " 2\n"

    assert ports.find_port(ask=ask, ports=[cp2102(), pico()]) == "/dev/ttyUSB0"
    assert len(prompts) == 1
    assert "1. /dev/ttyACM0" in prompts[0] and "2. /dev/ttyUSB0" in prompts[0]


def test_several_boards_ask_by_device_path():
    listed = [cp2102(), pico()]
    assert ports.find_port(ask=lambda prompt: "/dev/ttyACM0", ports=listed) == "/dev/ttyACM0"


@pytest.mark.parametrize("answer", ["3", "0", "", "/dev/ttyS0", "pico"])
def test_several_boards_bad_answer_names_the_choices(answer):
    with pytest.raises(PortError) as e:
        ports.find_port(ask=lambda prompt: answer, ports=[cp2102(), pico()])
    assert "1-2" in str(e.value)
    assert "/dev/ttyACM0, /dev/ttyUSB0" in str(e.value)


def test_several_boards_no_answer_points_to_port():
    def ask(prompt):
        raise EOFError

    with pytest.raises(PortError, match="--port"):
        ports.find_port(ask=ask, ports=[cp2102(), pico()])


def test_explicit_port_is_returned_unchanged_without_listing(monkeypatch):
    def comports():
        raise AssertionError("listed ports although --port was given")

    monkeypatch.setattr(serial.tools.list_ports, "comports", comports)
    assert ports.find_port("COM7", ask=never_ask) == "COM7"
    assert ports.find_port("/dev/ttyUSB9", ports=[pico()]) == "/dev/ttyUSB9"


def test_describe_a_pico():
    assert ports.describe(pico()) == (
        "/dev/ttyACM0  Raspberry Pi Pico (MicroPython)  serial E6614C311B7F4A2B"
    )


def test_describe_a_bridge_says_probably_esp32():
    line = ports.describe(cp2102())
    assert line.startswith("/dev/ttyUSB0  Silicon Labs CP210x (")
    assert "ESP32" in line and line.endswith("  serial 0001")


def test_describe_without_serial_number_or_usb():
    assert ports.describe(port("/dev/ttyUSB1", 0x1A86, 0x7523)) == (
        "/dev/ttyUSB1  WCH CH340 (USB-serial, probably an ESP32 board)"
    )
    assert ports.describe(ttys0()) == "/dev/ttyS0  unknown"


@pytest.mark.parametrize(
    "vid, pid, kind",
    [
        (0x2E8A, 0x0005, "micropython"),
        (0x2E8A, 0x0003, "bootloader"),
        (0x303A, 0x1001, "bridge"),
        (0x303A, 0x4001, "micropython"),
        (0x10C4, 0xEA60, "bridge"),
        (0x1A86, 0x7523, "bridge"),
        (0x1A86, 0x55D4, "bridge"),
        (0x0403, 0x6001, "bridge"),
        (0x239A, 0x8120, "circuitpython"),
        (0x239A, 0x0001, "circuitpython"),
    ],
)
def test_known_usb_ids(vid, pid, kind):
    assert ports.KIND_LABELS[kind] in ports.describe(port("/dev/x", vid, pid))
    assert (kind != "bootloader") == bool(ports.boards([port("/dev/x", vid, pid)]))


def test_every_known_id_is_described_by_name_and_kind():
    for vid, pid, name, kind in ports.USB_IDS:
        assert kind in ports.KIND_LABELS
        line = ports.describe(port("/dev/x", vid, 0x7777 if pid is None else pid))
        assert line == "/dev/x  %s (%s)" % (name, ports.KIND_LABELS[kind])


def test_install_hint_pico():
    hint = ports.install_hint(pico())
    assert "BOOTSEL" in hint and "RPI-RP2" in hint
    assert "https://micropython.org/download/RPI_PICO/" in hint and ".uf2" in hint
    assert "2e8a:0003" in hint
    assert "mpremote connect /dev/ttyACM0 bootloader" in hint


def test_install_hint_esp32_bridge_uses_the_port():
    hint = ports.install_hint(cp2102("/dev/ttyUSB3"))
    assert "esptool.py --port /dev/ttyUSB3 erase_flash" in hint
    assert "esptool.py --port /dev/ttyUSB3 --baud 460800 write_flash 0x1000 ESP32_GENERIC-" in hint
    assert "https://micropython.org/download/ESP32_GENERIC/" in hint


def test_install_hint_esp32_native_usb_writes_at_zero():
    hint = ports.install_hint(port("/dev/ttyACM0", 0x303A, 0x1001))
    assert "esptool.py --port /dev/ttyACM0 --baud 460800 write_flash 0 ESP32_GENERIC_S3-" in hint


def test_install_hint_circuitpython_is_out_of_scope():
    hint = ports.install_hint(port("/dev/ttyACM0", 0x239A, 0x8120))
    assert "CircuitPython" in hint and "out of scope" in hint and "CIRCUITPY" in hint
    assert "/dev/ttyACM0" in hint


def test_install_hint_unknown():
    assert "https://micropython.org/download/" in ports.install_hint()
    hint = ports.install_hint(port("/dev/ttyACM5", 0x1234, 0x5678))
    assert "https://micropython.org/download/" in hint
    assert "/dev/ttyACM5" in hint and "1234:5678" in hint
    assert "esptool" not in hint and "BOOTSEL" not in hint


def test_install_hint_bootloader_is_a_drive():
    hint = ports.install_hint(port("/dev/sdz", 0x2E8A, 0x0003))
    assert "not a serial port" in hint and "RPI-RP2" in hint
    assert "https://micropython.org/download/RPI_PICO/" in hint


@pytest.mark.parametrize("mounted, says", [
    (False, "whose drive is not mounted: mount it (udisksctl mount"),
    (True, "its drive at /media/u/RPI RP2: copy a UF2 onto it"),
])
def test_a_pico_in_bootsel_mode_gets_one_line_saying_what_to_do(tmp_path, mounted, says):
    # A Pico in BOOTSEL mode is a drive, not a serial port: it is found on the USB bus (a
    # system root of our own stands in for /sys and /proc), and the installed command says
    # what to do with it in one line.
    root = tmp_path / "root"
    usb = root / "sys" / "bus" / "usb" / "devices" / "1-1"
    usb.mkdir(parents=True)
    (usb / "idVendor").write_text("2e8a\n")
    (usb / "idProduct").write_text("0003\n")
    (root / "proc").mkdir()
    (root / "proc" / "mounts").write_text(
        "/dev/sdb1 /media/u/RPI\\040RP2 vfat rw 0 0\n" if mounted else "")
    drive = root / "media" / "u" / "RPI RP2"
    drive.mkdir(parents=True)
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nBoard-ID: RPI-RP2\n")
    env = dict(installed.user_env(tmp_path), CHEESEBOARD_SYSTEM_ROOT=str(root))
    run = subprocess.run([installed.CHEESEBOARD, "flash"], cwd=str(tmp_path), env=env, text=True,
                         capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    installed.assert_clear_refusal(run, says)
    assert run.stderr.startswith("cheeseboard: no board found, but a Pico in BOOTSEL mode")
    assert run.stderr.count("\n") == 1, run.stderr
