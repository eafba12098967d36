"""The web front end: a page per game to watch live, replay and play by clicking, served by aiohttp beside the
chat (``pages``: the core's side; ``server``: the routes; ``views``: what a page is sent; ``seats``: seat links;
``static``: the page itself, plain HTML, CSS and JavaScript)."""
