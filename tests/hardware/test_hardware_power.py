"""The power limiter against the profiles: all white on the largest board stays in budget."""

from led_power import estimate_ma

from cheeseboard import paths
from cheesefw import render

PROFILES = [paths.load_profile(n) for n in paths.profile_names()]
LARGEST = max(PROFILES, key=lambda p: p["led"]["count"])


def all_white(count):
    return bytearray(b"\xff" * (3 * count))


def test_all_white_on_the_largest_profile_is_within_budget():
    led = LARGEST["led"]
    frame, out = all_white(led["count"]), render.new_frame(led["count"])
    limiter = render.PowerLimiter(led)
    # Unlimited, all white would pass the budget, or this test would prove nothing.
    assert estimate_ma(led, frame) == led["count"] * led["ma_full_white"] > led["budget_ma"]
    limiter.limit(frame, out)
    assert estimate_ma(led, out) <= led["budget_ma"]
    assert estimate_ma(led, out) >= led["budget_ma"] * 95 // 100  # dimmed, not blacked out
    assert len(set(out)) == 1  # every channel scaled alike: still white


def test_every_profile_within_budget_at_full_white():
    for p in PROFILES:
        led = p["led"]
        out = render.new_frame(led["count"])
        render.PowerLimiter(led).limit(all_white(led["count"]), out)
        # The profile's own mA per pixel, from first principles rather than the limiter's own sum.
        ma = sum(out) * led["ma_full_white"] / 765
        assert ma <= led["budget_ma"], p["name"]


def test_the_profiles_figure_wins_and_a_frame_in_budget_is_untouched():
    dim = LARGEST["led"]["budget_ma"] // LARGEST["led"]["count"]
    led = dict(LARGEST["led"], ma_full_white=dim)  # pixels dim enough that all white fits
    frame, out = all_white(LARGEST["led"]["count"]), render.new_frame(LARGEST["led"]["count"])
    render.PowerLimiter(led).limit(frame, out)
    assert out == frame
    render.PowerLimiter(dict(led, ma_full_white=60)).limit(frame, out)
    assert out != frame
