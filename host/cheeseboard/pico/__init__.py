"""The emulated Raspberry Pi Pico: a UF2 on an RP2040 in rp2040js (Node)."""
