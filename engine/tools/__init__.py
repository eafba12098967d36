"""Tools built on the engine, apart from the library: the command line (``cli``), the Hub protocol (``hub``),
engine matches (``match``) and the bench (``bench``)."""
