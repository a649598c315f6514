"""The order of a WS2812 chain's colours on the wire, for the MicroPython backends (rp2's PIO and
DMA, ESP32's neopixel): the profile's led "order" checked once, for both."""

# Where each colour goes on the wire, for the profile's led "order".
WIRE_ORDERS = {"GRB": (1, 0, 2), "RGB": (0, 1, 2), "BRG": (1, 2, 0), "RBG": (0, 2, 1)}


def wire_order(led):
    """The wire positions of red, green and blue for the profile's led section."""
    order = led.get("order", "GRB")
    if order not in WIRE_ORDERS:
        raise ValueError("led.order: expected one of %s, got %r" % (sorted(WIRE_ORDERS), order))
    return WIRE_ORDERS[order]
