# The engine library's documentation (Sphinx): a short guide and the API reference, read from the docstrings.
# Built by: .venv/bin/python -m sphinx -W -b html docs/library build/library-docs
import os
import sys

sys.path.insert(0, os.path.abspath("../.."))

project = "draughts-engine"
author = "the draughts bot's authors"
extensions = ["sphinx.ext.autodoc"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
html_theme = "alabaster"
exclude_patterns = ["_build"]
# numba's compiled functions and numpy arrays in signatures are read as they are
nitpicky = False
