"""`benchmarks.bench_sb_ids --parts`: the mask's parts are timed while it runs, and put back."""

from __future__ import annotations

from collections import Counter

from benchmarks.bench_sb_ids import PARTS, measure, timed_parts
from teocalli.games.stack_back import id_kernels, ids


def test_parts_are_timed_within_and_restored_after() -> None:
    before = {(id(owner), name): getattr(owner, name) for owner, names in PARTS for name in names}
    spent: Counter[str] = Counter()
    with timed_parts(spent):
        assert id_kernels.exist is not before[(id(id_kernels), "exist")]
        steps, _, enc = measure([0], spent)
    assert steps > 0
    assert {"_table", "exist", "new_pairs", "wood_first"} <= set(spent)
    assert spent["exist"] <= spent["_table"] <= enc  # the calls nest inside the encoder's time
    after = {(id(owner), name): getattr(owner, name) for owner, names in PARTS for name in names}
    assert after == before
    assert ids._table is before[(id(ids), "_table")]
