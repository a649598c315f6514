"""The render benchmark's own claims, on the MicroPython VM (timings are only printed)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_render  # noqa: E402

pytestmark = pytest.mark.board


def test_idle_ticks_write_no_frame_and_all_white_stays_in_budget():
    r = bench_render.run(n=50)
    assert r["count"] == max(bench_render.paths.load_profile(n)["led"]["count"]
                             for n in bench_render.paths.profile_names())
    assert r["idle_frames"] == 0
    assert 0 < r["game_frames"] < 50  # blinks redraw, most ticks do not
    assert r["budget_ma"] * 0.95 <= r["white_ma"] <= r["budget_ma"]
