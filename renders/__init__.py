"""Board images (Pillow) and text diagrams, for every game.

    from renders import RenderOptions, render_png, render_gif, text_diagram
    png = render_png(game_type("english"), position, RenderOptions(theme="contrast"), last_move=move, before=previous)

``renders`` imports ``engine`` (the game interface), never ``bot``.
"""

from renders.board import RenderOptions, render_gif, render_image, render_png
from renders.text import text_diagram
from renders.themes import THEMES

__all__ = ["RenderOptions", "THEMES", "render_gif", "render_image", "render_png", "text_diagram"]
