"""Board images (Pillow) and text diagrams, for every game; a game's evaluation graph.

    from renders import RenderOptions, render_png, render_gif, text_diagram
    png = render_png(game_type("english"), position, RenderOptions(theme="contrast"), last_move=move, before=previous)
    graph = render_graph(analysis, GraphOptions(width=600, height=200))    # a game's evaluation graph
    table = render_table("Standings", ["#", "Player", "Points"], [["1", "ana", "2"]])  # a tournament's standings
    svg = board_svg(Board("international"), arrows=[Arrow(32, 28)])  # SVG, shown as a picture in a notebook

``renders`` imports ``engine`` (the game interface), never ``bot``.
"""

from renders.board import RenderOptions, render_gif, render_image, render_png
from renders.svg import Arrow, Svg, board_svg, render_svg
from renders.graph import JUDGEMENT_COLOURS, GraphOptions, graph_points, render_graph
from renders.table import render_table
from renders.text import text_diagram
from renders.themes import THEMES

__all__ = ["Arrow", "GraphOptions", "JUDGEMENT_COLOURS", "RenderOptions", "Svg", "THEMES", "board_svg", "graph_points",
           "render_gif", "render_graph", "render_image", "render_png", "render_svg", "render_table", "text_diagram"]
