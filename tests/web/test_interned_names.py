"""Each game, played whole on the 32-bit VM (MicroPython's WebAssembly port, booted from the
flashed image as a Pico boots it: tests/bench/bench_heap.py), ends with fewer interned names
than the 621st, where the table of names doubles: a 4,544 B step on the heap, never given back.
A new name in play's code path shows here; `python tests/bench/bench_heap.py --names GAME`
says which module brings which."""

import shutil
import sys
from pathlib import Path

import pytest

from cheeseboard import paths
from cheeseboard.web import server as web

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import bench_heap  # noqa: E402

NODE = shutil.which("node")
HAVE_VM = (paths.ROOT / "node_modules" / web.NPM_PACKAGE / "micropython.mjs").exists()

pytestmark = [pytest.mark.board,
              pytest.mark.skipif(not (NODE and HAVE_VM), reason="no node or node_modules (make)")]


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """profile -> the flashed image as JSON for heap_wasm.mjs (made once for every game)."""
    tmp = tmp_path_factory.mktemp("names")
    made = {}

    def image(profile):
        if profile not in made:
            made[profile] = tmp / ("flash-%s.json" % profile)
            bench_heap.as_json(bench_heap.flash_files(tmp, profile), made[profile])
        return made[profile]

    return image


@pytest.mark.parametrize("label, game, options, profile", bench_heap.GAMES,
                         ids=[g[1] for g in bench_heap.GAMES])
def test_a_whole_game_ends_before_the_table_of_names_doubles(flashed, label, game, options,
                                                             profile):
    played = bench_heap.on_wasm(flashed(profile), game, options)
    assert played["moves"] > 0 and played["names"] == len(played["interned"])
    assert played["names"] < bench_heap.NAMES_DOUBLE_AT, (
        "%s: %d names at the end, the table doubles at %d (python tests/bench/bench_heap.py"
        " --names %s lists them by module)" % (label, played["names"],
                                               bench_heap.NAMES_DOUBLE_AT, game))
