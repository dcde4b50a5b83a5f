"""Footprint geometry: the numpy clipper and the separating-axis test agree with shapely."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from teocalli.games.stack_back.geometry import (
    DEEP,
    box,
    clip,
    clip_shapely,
    deep_hits,
    quads,
    sat_hits,
)

sticks = st.tuples(
    st.floats(0, 60), st.floats(0, 60), st.floats(0, 180), st.sampled_from([18.0, 27.0, 36.0])
)


def arrays(rows: list[tuple[float, float, float, float]]) -> list[np.ndarray]:
    a = np.radians([r[2] for r in rows])
    return [
        np.array([r[0] for r in rows]),
        np.array([r[1] for r in rows]),
        np.cos(a),
        np.sin(a),
        np.array([r[3] for r in rows]),
    ]


@settings(max_examples=60)
@given(st.lists(st.tuples(sticks, sticks), min_size=1, max_size=30))
def test_clip_matches_shapely_and_sat_matches_positive_area(pairs: list) -> None:
    a = arrays([p[0] for p in pairs])
    b = arrays([p[1] for p in pairs])
    qa, qb = quads(*a), quads(*b)
    area, cent = clip(qa, qb)
    area2, cent2 = clip_shapely(qa, qb)
    assert np.allclose(area, area2, atol=1e-6)
    big = area2 > 1e-3
    assert np.allclose(cent[big], cent2[big], atol=1e-4)
    hits = sat_hits(*a, *b).diagonal()
    assert not ((~hits) & (area2 > 1e-6)).any()
    assert not (hits & (area2 < 1e-9)).any()


def test_crossing_sticks_overlap_six_by_six_at_the_crossing_point() -> None:
    a = arrays([(10.0, 10.0, 0.0, 36.0)])
    b = arrays([(20.0, 10.0, 90.0, 18.0)])
    area, cent = clip(quads(*a), quads(*b))
    assert area[0] == np.float64(36.0) or abs(area[0] - 36.0) < 1e-9
    assert np.allclose(cent[0], [20.0, 10.0])


def test_side_by_side_sticks_do_not_overlap() -> None:
    a = arrays([(10.0, 10.0, 0.0, 36.0)])
    b = arrays([(10.0, 16.0, 0.0, 36.0)])
    assert not sat_hits(*a, *b)[0, 0]
    assert clip(quads(*a), quads(*b))[0][0] < 1e-9


def _lattice_quads(rng: np.random.Generator, n: int) -> np.ndarray:
    """Footprints as the engine meets them: centres on 0.2 mm, angles on 5 degrees (often square
    to the boards), and some anywhere, some boards."""
    x = np.round(rng.uniform(0, 60, n) * 5) / 5
    y = np.round(rng.uniform(0, 60, n) * 5) / 5
    deg = np.where(rng.random(n) < 0.7, rng.integers(0, 36, n) * 5.0, rng.uniform(0, 180, n))
    a = np.radians(deg)
    q = quads(x, y, np.cos(a), np.sin(a), rng.choice([18.0, 27.0, 36.0], n))
    boards = rng.random(n) < 0.1
    q[boards] = box(0.0, 0.0, 50.0, 50.0)
    return q


def test_shrunk_footprints_that_meet_overlap_more_than_the_tolerance() -> None:
    """`deep_hits` is the clip-free proof of a touch: every pair it accepts overlaps by more than
    pi mm² (a disc of radius DEEP)."""
    rng = np.random.default_rng(5)
    n = 4000
    x, y = rng.uniform(0, 60, (2, n))
    a = np.radians(rng.uniform(0, 180, (2, n)))
    h = rng.choice([18.0, 27.0, 36.0], (2, n))
    one = (x, y, np.cos(a[0]), np.sin(a[0]), h[0])
    two = (y, x, np.cos(a[1]), np.sin(a[1]), h[1])
    deep = deep_hits(*one, *two).diagonal()
    area, _ = clip(quads(*one), quads(*two))
    assert deep.sum() > 100
    assert (area[deep] > np.pi * DEEP**2 - 1e-9).all()
