"""Footprint geometry: the numpy clipper and the separating-axis test agree with shapely."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from teocalli.games.stack_back.geometry import clip, clip_shapely, quads, sat_hits

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
