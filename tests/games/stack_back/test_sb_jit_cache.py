"""numba's cache directory follows the kernels' sources (teocalli/games/stack_back/jit_cache.py):
an edit to a primitive another kernel module compiles in must not leave stale machine code."""

from __future__ import annotations

import shutil
from pathlib import Path

import numba
import pytest

from teocalli.games.stack_back import jit_cache


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "pkg"
    folder.mkdir()
    for path in jit_cache.HERE.glob("*.py"):
        shutil.copy(path, folder / path.name)
    return folder


def test_the_process_caches_in_the_directory_of_these_sources() -> None:
    here = jit_cache.cache_dir()
    assert Path(numba.config.CACHE_DIR).name == here.name == jit_cache.digest(jit_cache.sources())


def test_sources_are_the_kernels_and_what_they_import() -> None:
    names = {path.name for path in jit_cache.sources()}
    assert {"geom_kernels.py", "cand_kernels.py", "id_kernels.py"} <= names
    assert "components.py" in names  # geom_kernels compiles its HALF_WIDTH in
    assert "state.py" not in names  # no kernel imports it: editing it recompiles nothing


@pytest.mark.parametrize(
    ("edited", "moves"),
    [
        ("geom_kernels.py", True),  # a primitive cand_kernels and id_kernels compile in
        ("components.py", True),  # a constant geom_kernels compiles in (HALF_WIDTH)
        ("state.py", False),  # no kernel imports it: editing it recompiles nothing
    ],
)
def test_an_edit_moves_the_directory_only_if_a_kernel_compiles_it_in(
    tmp_path: Path, edited: str, moves: bool
) -> None:
    folder = _copy(tmp_path)
    before = jit_cache.digest(jit_cache.sources(folder))
    path = folder / edited
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert (jit_cache.digest(jit_cache.sources(folder)) != before) is moves


def test_a_users_numba_cache_dir_is_kept_as_the_base(tmp_path: Path) -> None:
    target = jit_cache.cache_dir(str(tmp_path))
    assert target.parent == tmp_path / "teocalli-numba"
