"""`geom_kernels.clip_both` gives the bits of `clip` and `clip_into` called apart.

The piled candidates' judging clips each support once for its area and its support polygon
(docs/games/stack-back.md, "Compiled piled candidates"); the two clippers it stands for are
compared with the code they replaced in test_sb_wood_kernels.py (`clip`, numpy) and
test_sb_pile_kernels.py (`clip_into`, through the support polygon, support.py's Python)."""

from __future__ import annotations

import math

import numpy as np

from teocalli.core import Rng
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH
from teocalli.games.stack_back.geom_kernels import MOST, WORK, clip, clip_both, clip_into, quad


def _footprint(x: float, y: float, degrees: float, half: float) -> np.ndarray:
    out = np.empty((4, 2))
    a = math.radians(degrees)
    quad(x, y, math.cos(a), math.sin(a), half, HALF_WIDTH, out)
    return out


def _pairs() -> list[tuple[np.ndarray, np.ndarray]]:
    """Footprints that overlap, touch along an edge or a corner, coincide, or lie apart: random
    poses near each other, some on the wood lattice's 0.5 mm and 1 degree steps."""
    rng = Rng(17)
    pairs = []
    for k in range(3000):
        sub = _footprint(0.0, 0.0, rng.uniform(0, 180), HALF_LENGTHS[k % len(HALF_LENGTHS)])
        x, y, a = rng.uniform(-60, 60), rng.uniform(-60, 60), rng.uniform(0, 180)
        if k % 3 == 0:  # lattice steps: exact edges and corners meet more often
            x, y, a = round(x * 2) / 2, round(y * 2) / 2, float(round(a))
        pairs.append((sub, _footprint(x, y, a, HALF_LENGTHS[(k // 3) % len(HALF_LENGTHS)])))
    square = _footprint(3.0, -2.0, 90.0, HALF_WIDTH)
    pairs += [(square, square.copy()), (square, square + 2 * HALF_WIDTH), (square, square + 9.0)]
    return pairs


def test_clip_both_is_clip_and_clip_into_bit_for_bit() -> None:
    overlapping = 0
    for sub, win in _pairs():
        pts, apart = np.zeros((2 * MOST, 2)), np.zeros((2 * MOST, 2))
        end, area, gx, gy = clip_both(sub, win, pts, 5, np.empty((5, MOST)), np.empty(WORK))
        want_end = clip_into(sub, win, apart, 5, np.empty((5, MOST)))
        want = clip(sub, win, np.empty(WORK))
        assert end == want_end
        assert pts[5:end].tobytes() == apart[5:want_end].tobytes()
        assert np.array([area, gx, gy]).tobytes() == np.array(want).tobytes()
        overlapping += area > 0
    assert 300 < overlapping < 3000  # both kinds of pair were tried
