"""Serial devices that cannot exist on this machine, on a pseudo-terminal: something that is
not MicroPython at all (a GPS module chattering NMEA), a board of another kind (an ESP32)
whose raw REPL answers the flash agent's `facts()` with what that board reports, and a board
that prints a line after a soft reset and then nothing more. It runs no
code: it records what the host sent, so a test can show that nothing was written."""

import json
import os
import threading
import time
import tty


class FakeDevice:
    def __init__(self, facts=None, stuck_after_reboot=None):
        self.facts = facts  # None: not MicroPython
        # bytes a board prints after a soft reset in the raw REPL, then nothing more (a
        # boot.py that hangs): None for one that comes back to the raw REPL
        self.stuck_after_reboot = stuck_after_reboot
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave
        self.executed = []  # the raw REPL code the host sent
        self.left_raw_repl = False  # the host let the board go back to its program
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def close(self):
        self._stop = True
        os.close(self.master)
        os.close(self._slave)

    def _write(self, data):
        os.write(self.master, data)

    def _run(self):
        if self.facts is None:
            return self._chatter()
        code = bytearray()
        raw = False
        while not self._stop:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for c in data:
                if raw and code == b"\x05A" and c == 1:  # raw-paste: not offered (old boards)
                    code.clear()
                    self._write(b"R\x00")
                elif c == 1:  # Ctrl-A: raw REPL
                    raw = True
                    code.clear()
                    self._write(b"raw REPL; CTRL-B to exit\r\n>")
                elif c == 2:  # Ctrl-B: back to the friendly REPL (a restart follows)
                    raw = False
                    self.left_raw_repl = True
                    self._write(b"\r\n>>> ")
                elif c == 3:
                    code.clear()
                elif c == 4 and raw and not code and self.stuck_after_reboot is not None:
                    self._write(b"OK\r\nMPY: soft reboot\r\n" + self.stuck_after_reboot)
                    return
                elif c == 4 and raw and not code:  # soft reset in the raw REPL
                    self._write(b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>")
                elif c == 4 and raw:
                    self._execute(bytes(code))
                    code.clear()
                elif raw:
                    code.append(c)

    def _chatter(self):
        """A GPS module: an NMEA sentence every 50 ms, whatever it is sent."""
        while not self._stop:
            try:
                self._write(b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n")
            except OSError:
                return
            time.sleep(0.05)

    def _execute(self, source):
        text = source.decode(errors="replace")
        self.executed.append(text)
        out = json.dumps(self.facts).encode() + b"\r\n" if text.startswith("facts(") else b""
        self._write(b"OK" + out + b"\x04\x04>")
