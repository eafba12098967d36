"""Board images (Pillow). Built in its own issue."""
