"""The Discord front end: the client (``client``), its slash commands (``commands``), the buttons and move menu
(``views``), and the helpers they share. discord.py is imported only here, and only when the bot runs on
Discord."""
