"""The decorator of the hot compiled functions."""

from numba import njit


def hot(**options):
    """numba's ``njit`` for a hot function that allocates nothing: cached, and compiled without numba's
    reference counting (``_nrt=False``). With it, numba counts references to every array argument on entry
    and exit of each call with atomic instructions: a quarter of the search's time, measured (see
    ``engine.draughts.kernel``). ``options`` go to ``njit`` as well (``nogil=True``)."""
    return njit(cache=True, _nrt=False, **options)  # type: ignore[call-overload]  # numba's stubs omit _nrt
