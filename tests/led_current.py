"""The LED chain's current as the tests reckon it, apart from the firmware's limiter they check:
a WS2812B draws about `ma_full_white` mA at full white, proportionally less (765 = 3 x 255)."""


def estimate_ma(frame, led):
    """A frame's estimated current in mA on the profile's LEDs (led: its "led" section)."""
    return sum(frame) * led.get("ma_full_white", 60) // 765
