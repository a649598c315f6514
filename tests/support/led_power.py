"""The current a frame draws, reckoned as the firmware's power limiter (cheesefw/render.py)
does, but written here: the board only limits, it never needs the estimate itself."""


def estimate_ma(led, frame):
    """A frame's current in mA: each channel at full brightness draws a third of a pixel's
    `ma_full_white` (the profile's `led` section)."""
    return sum(frame) * led.get("ma_full_white", 60) // 765
