"""numba's cache is dropped for the kernels that inline others when any kernel's source changes."""

from engine import compiled_cache


def test_an_edited_kernel_source_drops_the_stale_compiled_search(tmp_path, monkeypatch):
    for name in compiled_cache.SOURCES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(f"# {name}\n")
    monkeypatch.setattr(compiled_cache, "ROOT", tmp_path)
    search_cache = tmp_path / "search" / "__pycache__"
    search_cache.mkdir()
    compiled_cache.refresh()
    index = search_cache / "kernel.search_iteration-300.py311.nbi"
    index.write_text("compiled from the sources as they are")
    compiled_cache.refresh()
    assert index.exists(), "unchanged sources keep the cache"
    (tmp_path / "draughts" / "evaluation.py").write_text("# edited\n")
    compiled_cache.refresh()
    assert not index.exists(), "a search that inlines the old evaluation is not loaded"
    (tmp_path / "search" / "__pycache__" / "other.nbi").write_text("")
    compiled_cache.refresh()
    assert (tmp_path / "search" / "__pycache__" / "other.nbi").exists()
