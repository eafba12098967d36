import pytest


def pytest_addoption(parser):
    parser.addoption("--bench", action="store_true", help="also run slow perft depths and long runs")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--bench"):
        return
    skip = pytest.mark.skip(reason="opt-in benchmark: run with --bench")
    for item in items:
        if "bench" in item.keywords:
            item.add_marker(skip)
