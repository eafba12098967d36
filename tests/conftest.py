import os
import tempfile

import pytest

# The search reads endgame databases where ``python -m engine egtb build`` left them; the tests must not depend on
# what this machine has built, so they see an empty folder unless a test points elsewhere.
os.environ["ENGINE_EGTB_DIR"] = tempfile.mkdtemp(prefix="no-egtb-")
os.environ["BOT_ENDGAME_PIECES"] = "0"  # and the bots they start build none (tests/test_endgames.py builds its own)
os.environ["BOT_WEB"] = "false"  # nor serve a web page on this machine's port 8080 (tests/test_web.py starts its own)
os.environ["BOT_LANGUAGE"] = "en"  # the bots they start speak English whatever this machine's LANG (a test sets its own)


def pytest_addoption(parser):
    parser.addoption("--bench", action="store_true", help="also run slow perft depths and long runs")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--bench"):
        return
    skip = pytest.mark.skip(reason="opt-in benchmark: run with --bench")
    for item in items:
        if "bench" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def pool():
    """One search process for the bot tests (started once: it loads the compiled search)."""
    from bot.pool import SearchPool

    search_pool = SearchPool(workers=1, queue_limit=20, tt_mb=8)
    search_pool.start()
    yield search_pool
    search_pool.close()


@pytest.fixture(scope="session")
def postgres_server():
    """The URL of a real PostgreSQL server started for this test session (tests/postgres.py)."""
    from postgres import start_server

    server, url = start_server()
    yield url
    server.cleanup()
