// The RP2040's PIO state machines stepped on the chip's clock, each at its clock divider.
//
// rp2040js runs PIO from a setTimeout loop (1000 steps a batch, on the host's time) and
// ignores both the divider and an instruction's delay cycles, while its DMA runs on the
// chip's clock: a PIO-driven WS2812 chain's pulses then have no real widths. Here the chip's
// clock advances through tick(), and every state machine executes its cycles at the instants
// its divider gives (sys clock / (INT + FRAC/256)), so a pin it drives changes at the chip
// time a real RP2040 would change it.
//
// rp2040js's StateMachine still decodes and executes each instruction; this file decides when.

// rp2040js's WaitType (not exported): a stall on the TX FIFO, by PULL or by OUT's autopull.
const WAIT_TX_FIFO = 3;
const WAIT_OUT = 5;

export class PioClock {
  constructor(mcu, cycleNs) {
    this.clock = mcu.clock;
    this.cycleNs = cycleNs;
    this.pios = mcu.pio;
    for (const pio of this.pios) {
      pio.run = () => {}; // its own setTimeout loop: never started (CTRL's write calls it)
      for (const sm of pio.machines) {
        sm.nextCycle = 0; // the system cycle of its next PIO cycle
        sm.busy = 0; // PIO cycles left of the instruction's delay
        sm.seenCycles = sm.cycles; // rp2040js's count of the cycles it has executed
      }
    }
  }

  /** The chip's clock in system cycles. */
  get now() {
    return this.clock.nanos / this.cycleNs;
  }

  /** Any state machine enabled (a disabled PIO block costs the chip's loop nothing). */
  get enabled() {
    return !this.pios[0].stopped || !this.pios[1].stopped;
  }

  /** A machine that can change something: enabled and not stalled on an empty TX FIFO (only
   * a write to the FIFO, by the CPU or DMA, moves it on, and rp2040js resolves that stall
   * there and then). */
  live(sm) {
    return sm.enabled && !(sm.waiting && (sm.waitType === WAIT_TX_FIFO ||
      sm.waitType === WAIT_OUT) && sm.txFIFO.empty);
  }

  /** Some state machine can change something before the CPU or DMA does. */
  get running() {
    return this.pios.some((pio) => !pio.stopped && pio.machines.some((sm) => this.live(sm)));
  }

  /** Advance the chip's clock by `cycles` system cycles, the state machines with it. */
  tick(cycles) {
    let left = cycles;
    while (left > 0) {
      let next = Infinity;
      for (const pio of this.pios) {
        if (pio.stopped) continue;
        for (const sm of pio.machines) {
          if (!this.live(sm)) continue;
          if (sm.nextCycle < this.now) sm.nextCycle = Math.ceil(this.now); // just woken
          if (sm.nextCycle < next) next = sm.nextCycle;
        }
      }
      const step = Math.min(left, next - this.now);
      if (step > 0) {
        this.clock.tick(step * this.cycleNs); // DMA and timer alarms fire on the way
        left -= step;
      }
      if (next > this.now) break;
      for (const pio of this.pios) {
        if (pio.stopped) continue;
        for (const sm of pio.machines) {
          if (this.live(sm) && sm.nextCycle <= this.now) {
            this.pioCycle(sm);
            sm.nextCycle += divider(sm);
          }
        }
        pio.checkChangedPins(); // the GPIOs see the new levels at this instant
      }
    }
  }

  /** One PIO cycle of one state machine: an instruction, a stalled cycle or a delay cycle. */
  pioCycle(sm) {
    // A stall the CPU or DMA ended by writing the FIFO: the instruction completes in this
    // cycle, and rp2040js has already counted its delay.
    const ended = sm.cycles - sm.seenCycles;
    if (ended > 0) sm.busy = ended + 1;
    if (sm.busy > 0) {
      sm.busy--;
      sm.seenCycles = sm.cycles;
      return;
    }
    const stalled = sm.waiting;
    const before = sm.cycles;
    sm.step();
    // rp2040js counts 1 + delay for an instruction, the delay alone when a stall ends.
    const spent = sm.cycles - before;
    sm.busy = stalled ? spent : Math.max(0, spent - 1);
    sm.seenCycles = sm.cycles;
  }
}

/** System cycles per PIO cycle: INT + FRAC/256, INT 0 meaning 65536. */
function divider(sm) {
  return (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
}
