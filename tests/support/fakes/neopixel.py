# A stand-in for MicroPython's `neopixel` driver: the same buffer layout (3 bytes
# per pixel in the WS2812B's wire order, G R B) and `write()` sends that buffer
# as is. Each write is recorded as the bytes that would go down the wire.


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # where R, G, B (and W) sit in each pixel's bytes: GRB
    writes = []

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        offset = i * self.bpp
        for j in range(self.bpp):
            self.buf[offset + self.ORDER[j]] = rgb[j]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, rgb):
        for i in range(self.n):
            self[i] = rgb

    def write(self):
        NeoPixel.writes.append(bytes(self.buf))
