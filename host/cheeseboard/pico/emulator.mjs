// An RP2040 (npm rp2040js) running a Pico's flash, wired for the Python side (board.py):
//
//   node emulator.mjs FLASH BOOTROM LED_GPIO realtime|free SIDE_IN_FD SIDE_OUT_FD [--xip-cache on|off]
//
//   --xip-cache: the flash read through a model of the RP2040's XIP cache, its misses costing
//             cycles (xip_cache.mjs; on unless off), or as fast as SRAM (rp2040js's own)
//
//   stdin  -> USB CDC (console bytes from the host)     stdout <- USB CDC (console bytes to the host)
//   side in -> : "P <gpio> <ms>:<level>,..." drive an input pin, ms from now
//             in emulated time
//   side out <-  "F <start ns> <end ns> <hex>" one WS2812 frame as the chain
//             received it (wire order), "T <ms>" the emulated clock, "U" USB configured,
//             "I <start ns> <end ns>" interrupts masked (PRIMASK) for 20 us or more,
//             "A <gpio> <ms>" a pin's levels taken, at that ms of the emulated clock (their
//             "from now"; a busy host may pass them on later than it sent them)
//   exit 3 <- the watchdog (or machine.reset) reset the chip: start it again from the flash
//
// The flash is a QSPI NOR flash behind the SSI, emulated here because rp2040js has none: its
// erase and program commands change the image in the file given, page by page, as they
// happen, so a power cut (this process killed) leaves the flash as the chip had written it.
// Each keeps the flash busy for a W25Q16JV's typical time (BUSY_NS), on the chip's clock.
import fs from 'node:fs';
import net from 'node:net';
import { RP2040, USBCDC } from 'rp2040js';
import { PioClock } from './pio_clock.mjs';
import { attachXipCache } from './xip_cache.mjs';

const [flashPath, bootromPath, ledPinText, realtimeText, sideInText, sideOutText, ...options] =
  process.argv.slice(2);
const xipOption = options.indexOf('--xip-cache');
const xipCache = xipOption < 0 || options[xipOption + 1] !== 'off';
const FLASH_BASE = 0x10000000;
const FLASH_SIZE = 2 * 1024 * 1024; // a Pico's W25Q16JV
const CYCLE_NS = 1e9 / 125e6;
const WS2812_RESET_NS = 50_000; // a low this long ends a frame (the chain latches)
const WS2812_ONE_NS = 625; // a high longer than this is a 1 bit (0: ~400 ns, 1: ~800 ns)
const EXIT_RESET = 3;

const mcu = new RP2040();
// rp2040js reports what it does not emulate (the second core's FIFO, which MicroPython reads
// around flash writes, and a few more); say it only when asked (CHEESEBOARD_PICO_DEBUG=1).
const say = process.env.CHEESEBOARD_PICO_DEBUG ? (name, msg) => process.stderr.write(`${name}: ${msg}\n`) : () => {};
mcu.logger = { debug() {}, info() {}, warn: say, error: say };
const rom = fs.readFileSync(bootromPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
if (xipCache) attachXipCache(mcu);

// -- the flash ------------------------------------------------------------------------------

const flashFd = fs.openSync(flashPath, 'r+');
fs.readSync(flashFd, mcu.flash, 0, FLASH_SIZE, 0);

function persist(offset, length) {
  fs.writeSync(flashFd, mcu.flash, offset, length, offset);
}

// How long the flash is busy after a program or an erase: the W25Q16JV's typical times (its
// datasheet's tPP, tSE, tBE1, tBE2, tCE). The chip polls the status register until it is done,
// with interrupts off (MicroPython's flash writes): the time is the chip's, as on a Pico.
const BUSY_NS = { 0x02: 0.4e6, 0x20: 45e6, 0x52: 120e6, 0xd8: 150e6, 0xc7: 5e9, 0x60: 5e9 };

/** A SPI NOR flash, one byte exchanged at a time while its chip select is low. */
class NorFlash {
  constructor(mem, clock) {
    this.mem = mem;
    this.clock = clock;
    this.busyUntilNs = 0;
    this.writeEnabled = false;
    this.begin();
  }

  begin() {
    this.cmd = -1;
    this.count = 0; // bytes after the command byte
    this.addr = 0;
    this.programmed = false;
  }

  exchange(byte) {
    if (this.cmd < 0) {
      this.cmd = byte;
      if (byte === 0x06) this.writeEnabled = true;
      if (byte === 0x04) this.writeEnabled = false;
      return 0;
    }
    const n = this.count++;
    switch (this.cmd) {
      case 0x05: // status 1: busy (bit 0) until the last program or erase is done
        return (this.clock.nanos < this.busyUntilNs ? 1 : 0) | (this.writeEnabled ? 2 : 0);
      case 0x35: // status 2: quad enable set
        return 2;
      case 0x9f: // JEDEC id: Winbond W25Q16
        return [0xef, 0x40, 0x15][n] ?? 0;
      case 0x4b: // unique id after 4 dummy bytes
        return n < 4 ? 0 : [0xe6, 0x60, 0x38, 0x1c, 0x2b, 0x37, 0x52, 0x2d][n - 4] ?? 0;
      case 0x03: // read
      case 0x0b: // fast read (one dummy byte)
        if (n < 3) {
          this.addr = (this.addr << 8) | byte;
          return 0;
        }
        if (this.cmd === 0x0b && n === 3) return 0;
        return this.mem[this.addr++ % FLASH_SIZE];
      case 0x02: // page program: 1 bits can only become 0, the address wraps in its page
        if (n < 3) {
          this.addr = (this.addr << 8) | byte;
          return 0;
        }
        if (this.writeEnabled) {
          const page = this.addr & ~0xff & (FLASH_SIZE - 1);
          this.mem[page + ((this.addr + n - 3) & 0xff)] &= byte;
          this.programmed = true;
        }
        return 0;
      case 0x20: // erase 4 KB
      case 0x52: // erase 32 KB
      case 0xd8: // erase 64 KB
        if (n < 3) this.addr = (this.addr << 8) | byte;
        return 0;
      default:
        return 0;
    }
  }

  busyFor(cmd) {
    this.busyUntilNs = this.clock.nanos + BUSY_NS[cmd];
  }

  end() {
    const sizes = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 };
    if (this.cmd in sizes && this.count >= 3 && this.writeEnabled) {
      const size = sizes[this.cmd];
      const start = this.addr & ~(size - 1) & (FLASH_SIZE - 1);
      this.mem.fill(0xff, start, start + size);
      persist(start, size);
      this.writeEnabled = false;
      this.busyFor(this.cmd);
    } else if ((this.cmd === 0xc7 || this.cmd === 0x60) && this.writeEnabled) {
      this.mem.fill(0xff, 0, FLASH_SIZE);
      persist(0, FLASH_SIZE);
      this.writeEnabled = false;
      this.busyFor(this.cmd);
    } else if (this.cmd === 0x02 && this.programmed) {
      persist(this.addr & ~0xff & (FLASH_SIZE - 1), 256);
      this.writeEnabled = false;
      this.busyFor(this.cmd);
    } else if (this.cmd === 0x02 || this.cmd === 0x01) {
      this.writeEnabled = false;
    }
    this.begin();
  }
}

const nor = new NorFlash(mcu.flash, mcu.clock);
const OUTOVER_LOW = 2;
const OUTOVER_HIGH = 3;
let csForced = 0; // the QSPI SS pad's output override: 0 = the SSI drives chip select

/** IO_QSPI: only the SS pad's override matters; its edges frame the flash commands. */
class QspiIO {
  constructor() { this.regs = new Uint32Array(12); }
  readUint32(offset) { return offset < 48 ? this.regs[offset >> 2] : 0; }
  writeUint32(offset, value) {
    if (offset >= 48) return;
    this.regs[offset >> 2] = value;
    if (offset === 0x0c) {
      const over = (value >> 8) & 3;
      if (over !== csForced && (over === OUTOVER_HIGH || csForced === OUTOVER_LOW)) nor.end();
      csForced = over;
    }
  }
}

/** The SSI in its register mode: each byte written to DR0 goes to the flash at once and its
 * answer waits in the RX FIFO. When the SSI drives chip select itself, a transfer ends when
 * the FIFO runs empty; here that is the first status read after the bytes went out. */
class FlashSSI {
  constructor() {
    this.regs = new Map();
    this.rx = [];
    this.enabled = 0;
  }
  readUint32(offset) {
    switch (offset) {
      case 0x08: return this.enabled;
      case 0x20: return 0; // TXFLR: sent at once
      case 0x24: return this.rx.length; // RXFLR
      case 0x28: // SR: TX FIFO not full and empty, RX FIFO not empty, never busy
        if (csForced !== OUTOVER_LOW && nor.cmd >= 0) nor.end();
        return 0x6 | (this.rx.length ? 0x8 : 0);
      case 0x58: return 0x51535049;
      case 0x5c: return 0x3430312a;
      case 0x60: return this.rx.length ? this.rx.shift() : 0;
      default: return this.regs.get(offset) ?? 0;
    }
  }
  writeUint32(offset, value) {
    if (offset === 0x08) {
      this.enabled = value & 1;
      if (!this.enabled) {
        this.rx = [];
        if (csForced !== OUTOVER_LOW && nor.cmd >= 0) nor.end();
      }
      return;
    }
    if (offset === 0x60) {
      // Deselected, the flash ignores the bytes; the SSI still clocks one in for each out.
      const answer = csForced === OUTOVER_HIGH ? 0 : nor.exchange(value & 0xff);
      if (this.rx.length < 16) this.rx.push(answer);
      return;
    }
    this.regs.set(offset, value);
  }
}

// The atomic aliases (XOR, set, clear) of both; a plain write reads nothing (a read of the
// SSI's data register takes a byte from its FIFO).
for (const cls of [QspiIO, FlashSSI]) {
  cls.prototype.writeUint32Atomic = function (offset, value, type) {
    if (type === 0) return this.writeUint32(offset, value);
    const old = this.readUint32(offset);
    this.writeUint32(offset, type === 1 ? old ^ value : type === 2 ? old | value : old & ~value);
  };
}

mcu.peripherals[0x18000] = new FlashSSI();
mcu.peripherals[0x40018] = new QspiIO();

// -- the side channel out ---------------------------------------------------------------------

const SIDE_OUT = Number(sideOutText);
function side(line) {
  fs.writeSync(SIDE_OUT, line + '\n');
}

// -- USB CDC: the console ---------------------------------------------------------------------

const cdc = new USBCDC(mcu.usbCtrl);
const fromHost = []; // chunks (Buffers) not yet taken by the chip
let readWaiting = -1; // the OUT endpoint the chip armed while the host had nothing to send
let readSize = 0;
// A host sends on an OUT endpoint only when it has data; until then the chip's buffer waits
// (rp2040js's own CDC answers at once with an empty packet, which keeps the chip busy).
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return; // the control endpoint: rp2040js's CDC answers
  if (!fromHost.length) {
    readWaiting = endpoint;
    readSize = size;
    return;
  }
  deliver(endpoint, size);
};
function deliver(endpoint, size) {
  const out = [];
  while (out.length < size && fromHost.length) {
    const chunk = fromHost[0];
    const take = Math.min(size - out.length, chunk.length);
    for (let i = 0; i < take; i++) out.push(chunk[i]);
    if (take === chunk.length) fromHost.shift();
    else fromHost[0] = chunk.subarray(take);
  }
  mcu.usbCtrl.endpointReadDone(endpoint, Uint8Array.from(out));
}
let pendingBytes = 0;
process.stdin.on('data', (chunk) => {
  fromHost.push(chunk);
  pendingBytes += chunk.length;
  if (pendingBytes > 16384) process.stdin.pause(); // flow control: the host's writes block
});
process.stdin.on('end', () => process.exit(0)); // the host side is gone: so is the board
cdc.onDeviceConnected = () => side('U');
cdc.onSerialData = (data) => {
  fs.writeSync(1, data);
};

// -- buttons ----------------------------------------------------------------------------------

for (const pin of mcu.gpio) pin.setInputValue(true); // pulled up: no button pressed
let sideIn = '';
// A socket on the pipe, not fs.createReadStream: a blocking read of it would hold the
// process open at exit (the watchdog's reset) until the other side wrote again.
new net.Socket({ fd: Number(sideInText), readable: true, writable: false }).on('data', (chunk) => {
  sideIn += chunk.toString();
  let end;
  while ((end = sideIn.indexOf('\n')) >= 0) {
    const line = sideIn.slice(0, end);
    sideIn = sideIn.slice(end + 1);
    const [kind, gpio, steps] = line.split(' ');
    if (kind !== 'P') continue;
    const pin = mcu.gpio[Number(gpio)];
    for (const step of (steps || '').split(',')) {
      const [ms, level] = step.split(':').map(Number);
      const alarm = mcu.clock.createAlarm(() => pin.setInputValue(level !== 0));
      alarm.schedule(Math.max(0, ms) * 1e6);
    }
    side(`A ${gpio} ${Math.floor(mcu.clock.nanos / 1e6)}`);
  }
});

// -- the LED chain: WS2812 pulses on the NeoPixel pin ---------------------------------------

const ledPin = mcu.gpio[Number(ledPinText)];
let bits = [];
let riseNs = 0;
let frameStartNs = 0;
let lastFallNs = -Infinity;
let high = false;
function endFrame() {
  const bytes = Buffer.alloc(bits.length >> 3);
  for (let i = 0; i < bytes.length * 8; i++) if (bits[i]) bytes[i >> 3] |= 0x80 >> (i & 7);
  side(`F ${frameStartNs} ${lastFallNs} ${bytes.toString('hex')}`);
  bits = [];
}
ledPin.addListener((state) => {
  const now = mcu.clock.nanos;
  const isHigh = state === 1; // GPIOPinState.High
  if (isHigh && !high) {
    if (bits.length && now - lastFallNs > WS2812_RESET_NS) endFrame();
    if (!bits.length) frameStartNs = now;
    riseNs = now;
  } else if (!isHigh && high) {
    bits.push(now - riseNs > WS2812_ONE_NS ? 1 : 0);
    lastFallNs = now;
  }
  high = isHigh;
});

// -- the watchdog -----------------------------------------------------------------------------

let resetting = false;
const watchdog = mcu.peripherals[0x40058];
watchdog.onWatchdogTrigger = () => { // CTRL.TRIGGER: machine.reset()
  resetting = true;
};
// Its own alarm misses when the counter runs down (rp2040js's timer counts down past it), so
// the bite is an alarm of ours at the instant the counter reaches 0, set again at each write.
const bite = mcu.clock.createAlarm(() => { resetting = true; });
const writeWatchdog = watchdog.writeUint32.bind(watchdog);
watchdog.writeUint32 = (offset, value) => {
  writeWatchdog(offset, value);
  watchdog.alarm.enable = false;
  bite.cancel();
  if (watchdog.enable && watchdog.tickEnable) bite.schedule(watchdog.timer.counter * 500); // 2 MHz
};

// -- running ----------------------------------------------------------------------------------

const realtime = realtimeText === 'realtime';
const wallStart = process.hrtime.bigint();
mcu.core.PC = FLASH_BASE; // the boot ROM's flash boot: run boot2 from the flash's start
let lastTimeMs = -1;
let lastWall = process.hrtime.bigint();

// The PIO on the chip's clock (pio_clock.mjs): a sleeping core wakes to look at it this often.
const pio = new PioClock(mcu, CYCLE_NS);
const PIO_WAKE_NS = 1000;
function advance(ns) {
  if (pio.enabled) pio.tick(ns / CYCLE_NS);
  else mcu.clock.tick(ns);
}

const MASKED_REPORT_NS = 20_000;
let masked = false;
let maskedSinceNs = 0;

function run() {
  const { core, clock } = mcu;
  const sliceEnd = clock.nanos + 10e6; // 10 ms of the chip's time, then look at the world
  let idle = false;
  while (clock.nanos < sliceEnd && !resetting) {
    if (core.waiting) {
      let next = clock.nanosToNextAlarm;
      if (pio.enabled && pio.running) {
        next = Math.min(next > 0 ? next : Infinity, PIO_WAKE_NS); // its IRQ or DMA's may wake the core
      } else if (!(next > 0 && next < Infinity)) {
        idle = true; // asleep until an interrupt from outside: the host's, in wall time
        break;
      }
      advance(Math.min(next, sliceEnd - clock.nanos + 1));
    } else {
      advance(core.executeInstruction() * CYCLE_NS);
    }
    if (core.PM !== masked) { // cpsid / cpsie: how long the chip kept interrupts waiting
      masked = core.PM;
      if (masked) maskedSinceNs = clock.nanos;
      else if (clock.nanos - maskedSinceNs >= MASKED_REPORT_NS) side(`I ${maskedSinceNs} ${clock.nanos}`);
    }
  }
  if (resetting) {
    fs.fsyncSync(flashFd);
    process.exit(EXIT_RESET);
  }
  if (bits.length && clock.nanos - lastFallNs > WS2812_RESET_NS) endFrame();
  if (readWaiting >= 0 && fromHost.length) {
    const ep = readWaiting;
    readWaiting = -1;
    deliver(ep, readSize);
  }
  pendingBytes = fromHost.reduce((n, c) => n + c.length, 0);
  if (pendingBytes < 4096) process.stdin.resume();
  const ms = Math.floor(clock.nanos / 1e6);
  if (ms !== lastTimeMs) {
    side(`T ${ms}`);
    lastTimeMs = ms;
  }
  const wallNow = process.hrtime.bigint();
  if (idle) clock.tick(Math.min(10e6, Number(wallNow - lastWall)));
  lastWall = wallNow;
  let wait = idle ? 1 : 0;
  if (realtime) { // a person plays: the chip's clock does not run ahead of the wall's
    const wallNs = Number(wallNow - wallStart);
    wait = Math.max(wait, Math.floor((clock.nanos - wallNs) / 1e6));
  }
  setTimeout(run, wait);
}
run();
