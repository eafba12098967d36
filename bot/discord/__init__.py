"""The Discord front end: the client (``client``), which shows the core's replies through ``delivery``, its slash
commands (``commands``), the buttons and move menu (``views``), and the helpers they share. discord.py is imported
only here, and only when the bot runs on Discord."""
