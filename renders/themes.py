"""Colour themes for board images.

``wood`` is the classic look. ``contrast`` is for small screens and
colour-blind players: near-black and white with strong outlines, and the
highlights in the Okabe-Ito palette's sky blue and orange, which stay
distinct under every common form of colour blindness.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    name: str
    light: RGB
    """Light (unplayable) squares."""
    dark: RGB
    """Dark (playable) squares."""
    frame: RGB
    """The border and the caption bars."""
    frame_text: RGB
    """Text on the frame: coordinates, caption, whose turn."""
    square_text: RGB
    """Square numbers on the dark squares."""
    white_piece: RGB
    white_edge: RGB
    black_piece: RGB
    black_edge: RGB
    white_crown: RGB
    """The crown mark on a White king."""
    black_crown: RGB
    highlight: RGB
    """Squares of the last move."""
    path: RGB
    """The line along the last move's path."""
    target: RGB
    """Dots on the legal destinations of a chosen piece."""
    ghost_alpha: float = 0.35
    """Opacity of captured pieces drawn as ghosts."""


WOOD = Theme(
    name="wood",
    light=(236, 208, 160), dark=(166, 112, 66), frame=(74, 47, 27), frame_text=(246, 232, 204),
    square_text=(236, 208, 160),
    white_piece=(250, 244, 230), white_edge=(110, 90, 64), black_piece=(40, 32, 28), black_edge=(10, 8, 6),
    white_crown=(176, 122, 16), black_crown=(240, 196, 64),
    highlight=(214, 170, 58), path=(120, 64, 10), target=(46, 125, 50),
)

CONTRAST = Theme(
    name="contrast",
    light=(255, 255, 255), dark=(96, 96, 96), frame=(0, 0, 0), frame_text=(255, 255, 255),
    square_text=(255, 255, 255),
    white_piece=(255, 255, 255), white_edge=(0, 0, 0), black_piece=(0, 0, 0), black_edge=(255, 255, 255),
    white_crown=(0, 0, 0), black_crown=(255, 255, 255),
    highlight=(86, 180, 233), path=(0, 114, 178), target=(230, 159, 0), ghost_alpha=0.45,
)

THEMES: dict[str, Theme] = {t.name: t for t in (WOOD, CONTRAST)}


def theme(name: str) -> Theme:
    try:
        return THEMES[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; choose one of {', '.join(THEMES)}") from None


def blend(a: RGB, b: RGB, alpha: float) -> RGB:
    """``a`` over ``b`` at opacity ``alpha``."""
    return (round(a[0] * alpha + b[0] * (1 - alpha)), round(a[1] * alpha + b[1] * (1 - alpha)),
            round(a[2] * alpha + b[2] * (1 - alpha)))
