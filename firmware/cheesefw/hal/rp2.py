"""The rp2 backend (a Pico): buttons on machine.Pin, the LED chain driven by PIO and DMA.

A frame is reordered into the wire's byte order (viper code, a few µs a pixel) into the buffer
the DMA is not reading, handed to the DMA, and show() returns: the PIO state machine times
each bit, interrupts stay on, and the CPU is free while the frame is on the wire.
"""

import os
from time import ticks_add, ticks_diff, ticks_us

import machine
import rp2
import uctypes
from micropython import const

from cheesefw.hal import base, frame_loops
from cheesefw.hal.wire_order import wire_order

_PIO_HZ = const(8_000_000)  # 125 ns a PIO cycle: a bit is 10 cycles, 1.25 µs
_BYTE_US = const(10)  # 8 bits on the wire
_LATCH_US = const(300)  # low this long and the chain shows what it took (WS2812B-V5: 280 µs)
_STATE_MACHINE = const(0)
_READ_ADDR_TRIG = const(15)  # a DMA channel's register (a word's place): its read address, and go


# One bit of a WS2812 chain, MSB first, a byte from each FIFO word (the DMA writes bytes, which
# the bus repeats in all four lanes). Stalled for data, the line rests low.
@rp2.asm_pio(out_init=rp2.PIO.OUT_LOW, set_init=rp2.PIO.OUT_LOW,
             out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=8)
def _ws2812_bit():
    wrap_target()  # noqa: F821  (the assembler's names, defined by @rp2.asm_pio)
    out(x, 1)[1]  # type: ignore  # noqa: F821  low 250 ns: take the bit (wait here, low)
    set(pins, 1)[2]  # type: ignore  # noqa: F821  high 375 ns: every bit begins high
    mov(pins, x)[2]  # type: ignore  # noqa: F821  375 ns of the bit: a 1 high 750 ns in all
    set(pins, 0)[1]  # type: ignore  # noqa: F821  low 250 ns: a 0 low 875 ns with the next out
    wrap()  # noqa: F821


# The reorder in viper, compiled on the chip for the board's colour order when its chain is
# made: the compiler emits the chip's own instructions (an image built for any board carries
# bytecode only), and each colour's place in the pixel a constant (a byte moved by one
# instruction, about 0.3 µs a pixel where variable places took 1.2 µs).
_TO_WIRE = """
@micropython.viper
def to_wire(wire: ptr8, frame: ptr8, pixels: int):
    while pixels > 0:
        wire[%d] = frame[0]
        wire[%d] = frame[1]
        wire[%d] = frame[2]
        wire = ptr8(int(wire) + 3)
        frame = ptr8(int(frame) + 3)
        pixels -= 1
"""


def _wire_copier(order):
    """to_wire(wire, frame, pixels): an R, G, B frame into wire's byte order (order: each
    colour's place in a pixel on the wire)."""
    return frame_loops.on_chip(_TO_WIRE % order, "to_wire")[0]


class Ws2812Chain:
    """A WS2812 chain on one pin: a PIO state machine fed by a DMA channel from two buffers,
    one on the wire while the next frame is written into the other."""

    def __init__(self, pin, count, order):
        self._to_wire = _wire_copier(order)
        self._pixels = count
        self._buffers = (bytearray(3 * count), bytearray(3 * count))
        self._addresses = tuple(uctypes.addressof(b) for b in self._buffers)
        self._next = 0  # the buffer the next frame goes into
        self._wire_us = _BYTE_US * 3 * count + _LATCH_US
        self._free_at = ticks_us()  # when the chain has latched the last frame
        out = machine.Pin(pin, machine.Pin.OUT)
        self._sm = rp2.StateMachine(_STATE_MACHINE, _ws2812_bit, freq=_PIO_HZ,
                                    out_base=out, set_base=out)
        self._sm.active(1)
        # Bytes, one each time the FIFO has room, to the state machine's FIFO; a frame's worth.
        self._dma = rp2.DMA()
        ctrl = self._dma.pack_ctrl(size=0, inc_write=False, treq_sel=_pio_tx_dreq(_STATE_MACHINE))
        self._dma.config(write=self._sm, count=3 * count, ctrl=ctrl)
        # Its registers, to start a frame with one store (read address and trigger at once:
        # the count reloads from the config's at each trigger), not two calls into the driver.
        self._registers = self._dma.registers

    def write(self, frame):
        """Send a frame (R, G, B per pixel): returns once the DMA has it."""
        if len(frame) != 3 * self._pixels:  # (the copy reads as many bytes as the chain has)
            raise ValueError("frame: expected %d bytes, got %d" % (3 * self._pixels, len(frame)))
        n = self._next
        self._to_wire(self._buffers[n], frame, self._pixels)
        # The previous frame: still on the wire, perhaps (interrupts stay on meanwhile).
        free_at = self._free_at
        while ticks_diff(free_at, ticks_us()) > 0:
            pass
        self._registers[_READ_ADDR_TRIG] = self._addresses[n]
        self._free_at = ticks_add(ticks_us(), self._wire_us)
        self._next = n ^ 1


def journal_region():
    """The flash after the filesystem, kept for a game's journal by the cheeseboard UF2's
    _boot.py (host/cheeseboard/uf2/frozen_mount.py), as a block device; None under
    MicroPython's own UF2, whose filesystem holds all of its storage."""
    whole = rp2.Flash()
    blocks, size = whole.ioctl(4, 0), whole.ioctl(5, 0)  # the storage's, of 4 KB
    used = os.statvfs("/")[2]  # the filesystem's, in blocks of the same size
    if used >= blocks:
        return None
    return rp2.Flash(start=used * size, len=(blocks - used) * size)


def _pio_tx_dreq(state_machine):
    """The DMA request line of a state machine's TX FIFO (PIO0's 0-3, PIO1's 8-11)."""
    return (state_machine & 3) + 8 * (state_machine >> 2)


class Board(base.Board):
    def __init__(self, profile):
        led = profile["led"]
        order = wire_order(led)
        # (no "pin": a board whose wiring is not known, cheesefw.fault's: no pin is touched)
        self._chain = Ws2812Chain(led["pin"], led["count"], order) if "pin" in led else None
        base.Board.__init__(self, profile)
        self.frame_loops = frame_loops.compiled()
        if self._chain is not None:
            # show() is the chain's write, which checks the frame's size itself: two Python
            # calls fewer a frame (about 85 us of a 64 px write's 200 on the emulated Pico)
            self.show = self._chain.write

    def journal(self):
        """The game's journal: in the flash the cheeseboard UF2 keeps for it, where a move's
        line is a page program (engine/flash_journal.py), else in a file."""
        region = journal_region()
        if region is None:
            return base.Board.journal(self)
        from cheesefw.engine.flash_journal import FlashJournal

        return FlashJournal(self, region)

    def _make_pin(self, name, pin_id):
        # Buttons close to ground; the internal pull-up holds the line high.
        return machine.Pin(pin_id, machine.Pin.IN, machine.Pin.PULL_UP)

    def _transmit(self, frame):
        if self._chain is not None:
            self._chain.write(frame)
