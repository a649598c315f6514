// The RP2040's XIP cache, for emulator.mjs: rp2040js reads the flash as fast as SRAM, where a
// Pico reads it through a 16 KB cache (datasheet 2.6.3.1: two-way set-associative, 8-byte
// lines, a hit as fast as SRAM) and each miss waits for a serial read of the QSPI flash.
//
// What a miss costs, from the flash interface MicroPython's boot stage 2 sets up (the
// W25Q080 one: quad I/O continuous read, the SSI clock at clk_sys / 2, 4 wait cycles): the
// address and mode bits take 8 flash clocks, the wait 4, each 32-bit word 8 more. The word
// asked for arrives 20 flash clocks (40 chip cycles) after the miss, the line's other word 16
// cycles after that; with the bus's own few cycles, about 44 cycles for a line's first word
// (measured on a Pico: about 400 ns an uncached load, 50 cycles at 125 MHz). A line fills
// from its start: an access to its second word while that is still on its way waits for it,
// and a miss waits for the fill before it (the SSI does one at a time).
//
// Hooked on the core's own reads (its instruction fetches and loads), not on the chip's bus:
// the DMA's reads of the flash cost the CPU nothing here.

const FLASH_BASE = 0x10000000;
const FLASH_END = 0x14000000; // four aliases of the flash, 16 MB each
const LINE_SHIFT = 3; // 8-byte lines
const SETS = 1024; // 16 KB / 8 bytes / 2 ways
const MISS_FIRST_WORD = 44; // chip cycles until a missed line's first word is on the bus
const WORD_CYCLES = 16; // each further 32-bit word: 8 flash clocks at clk_sys / 2

/** The cache: its tags, which way each set replaces next, and the cycles its misses cost
 * the instruction under way. */
export class XipCache {
  constructor() {
    this.tags = new Int32Array(2 * SETS).fill(-1); // the line (address >> 3) each way holds
    this.victim = new Uint8Array(SETS); // the way a miss replaces: the least recently used
    this.enabled = true; // XIP_CTRL.EN: off, every access goes to the flash
    this.stall = 0; // cycles owed by the instruction under way
    this.hits = 0; // XIP_CTRL's CTR_HIT and CTR_ACC
    this.accesses = 0;
    this.fillLine = -1; // the line whose second word is still on its way, and when it lands
    this.fillReady = 0;
  }

  flush() {
    this.tags.fill(-1);
    this.fillLine = -1;
  }

  /** A read of the flash at address (any alias) by the core, at chip cycle now. */
  read(address, now) {
    const alias = (address >>> 24) & 3; // 0: cached, 1: no allocate, 2: no lookup, 3: neither
    const line = (address & 0xffffff) >>> LINE_SHIFT;
    const set = line & (SETS - 1);
    now += this.stall;
    this.accesses++; // (CTR_ACC counts the uncached aliases' reads too)
    if (this.enabled && alias < 2) {
      const way = this.tags[2 * set] === line ? 0 : this.tags[2 * set + 1] === line ? 1 : -1;
      if (way >= 0) {
        this.hits++;
        this.victim[set] = way ^ 1;
        // (the line's first word is in; its second may still be on its way)
        if (line === this.fillLine && (address & 4) && now < this.fillReady) {
          this.stall += this.fillReady - now;
        }
        return;
      }
    }
    // A miss: after the fill under way, the line from its start up to the word asked for.
    const start = Math.max(now, this.fillLine >= 0 ? this.fillReady : 0);
    const word = (address >>> 2) & 1;
    const ready = start + MISS_FIRST_WORD + word * WORD_CYCLES;
    this.stall += ready - now;
    this.fillLine = line;
    this.fillReady = ready + (word ? 0 : WORD_CYCLES);
    if (this.enabled && (alias & 1) === 0) {
      const way = this.victim[set];
      this.tags[2 * set + way] = line;
      this.victim[set] = way ^ 1;
    }
  }
}

/** XIP_CTRL (0x14000000): the cache's enable, its flush (the SDK's after a flash write), its
 * status and its hit and access counters, as a Pico's firmware sees them. */
class XipCtrl {
  constructor(cache) { this.cache = cache; this.ctrl = 3; }
  readUint32(offset) {
    switch (offset) {
      case 0x00: return this.ctrl;
      case 0x08: return 3; // STAT: flush done, stream FIFO empty
      case 0x0c: return this.cache.hits >>> 0;
      case 0x10: return this.cache.accesses >>> 0;
      default: return 0;
    }
  }
  writeUint32(offset, value) {
    if (offset === 0x00) {
      this.ctrl = value;
      this.cache.enabled = (value & 1) !== 0;
    } else if (offset === 0x04) {
      this.cache.flush();
    } else if (offset === 0x0c) {
      this.cache.hits = 0;
    } else if (offset === 0x10) {
      this.cache.accesses = 0;
    }
  }
  writeUint32Atomic(offset, value, type) {
    if (type === 0) return this.writeUint32(offset, value);
    const old = this.readUint32(offset);
    this.writeUint32(offset, type === 1 ? old ^ value : type === 2 ? old | value : old & ~value);
  }
}

/** Put the cache between mcu's core and the flash: each instruction's misses are added to
 * the cycles it took (so the chip's clock, its timers and SysTick see them). */
export function attachXipCache(mcu) {
  const cache = new XipCache();
  const { core } = mcu;
  const inFlash = (address) => address >= FLASH_BASE && address < FLASH_END;
  core.readUint32 = (address) => {
    if (inFlash(address)) cache.read(address, core.cycles);
    return mcu.readUint32(address);
  };
  core.readUint16 = (address) => {
    if (inFlash(address)) cache.read(address, core.cycles);
    return mcu.readUint16(address);
  };
  core.readUint8 = (address) => {
    if (inFlash(address)) cache.read(address, core.cycles);
    return mcu.readUint8(address);
  };
  const execute = core.executeInstruction.bind(core);
  core.executeInstruction = () => {
    const cycles = execute();
    if (cache.stall === 0) return cycles;
    const stall = cache.stall;
    cache.stall = 0;
    core.cycles += stall;
    return cycles + stall;
  };
  mcu.peripherals[0x14000] = new XipCtrl(cache);
  return cache;
}
