"""How an LED's colour looks to a person with a colour-vision deficiency, for the LED language's
tests: the board's bytes as light, then Machado, Oliveira and Fernandes (2009)'s simulation of
protanopia, deuteranopia and tritanopia (severity 1, through the `daltonlens` library), then
CIEDE2000 (colour_distance.py).

The board's brightness and gamma: a WS2812B's light is linear in its byte (the byte is a PWM
duty), and the firmware applies no gamma of its own, so a byte v gives v/255 of the pixel's
full light. The power limiter scales a whole frame by one factor; at full brightness the colours
are the palette's. As sRGB (what the simulation and CIEDE2000 take) a pixel is therefore its
light encoded with the sRGB curve: a dim byte looks brighter than it would on a screen.
"""

import numpy as np
from colour_distance import distance
from daltonlens import simulate

VISIONS = ("normal", "protan", "deutan", "tritan")
_DEFICIENCY = {"protan": simulate.Deficiency.PROTAN, "deutan": simulate.Deficiency.DEUTAN,
               "tritan": simulate.Deficiency.TRITAN}
_MACHADO = simulate.Simulator_Machado2009()


def led_as_srgb(rgb, brightness=1.0):
    """The sRGB colour (0..255) of an LED driven with bytes rgb, its light scaled by brightness."""
    out = []
    for v in rgb:
        light = v / 255 * brightness
        out.append(round(255 * (12.92 * light if light <= 0.0031308
                                else 1.055 * light ** (1 / 2.4) - 0.055)))
    return tuple(out)


def seen(rgb, vision, brightness=1.0):
    """The sRGB colour a person with that vision sees an LED driven with bytes rgb as."""
    return simulated(led_as_srgb(rgb, brightness), vision)


def simulated(srgb, vision):
    """An sRGB colour (a screen's) as a person with that vision sees it (Machado 2009)."""
    if vision == "normal":
        return tuple(srgb)
    image = np.array([[srgb]], dtype=np.uint8)
    return tuple(int(c) for c in _MACHADO.simulate_cvd(image, _DEFICIENCY[vision], 1.0)[0, 0])


def seen_distance(rgb_a, rgb_b, vision, brightness=1.0):
    """CIEDE2000 between two LEDs' colours as a person with that vision sees them."""
    return distance(seen(rgb_a, vision, brightness), seen(rgb_b, vision, brightness))
