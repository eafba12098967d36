"""The decorator of the hot compiled functions."""

from numba import njit


def hot(**options):
    """numba's ``njit`` for a hot function that allocates nothing: cached, and compiled without numba's
    reference counting (``_nrt=False``; why, in ``engine.draughts.kernel``'s docstring). ``options`` go to
    ``njit`` as well (``nogil=True``)."""
    return njit(cache=True, _nrt=False, **options)  # type: ignore[call-overload]  # numba's stubs omit _nrt
