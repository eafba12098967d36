"""A stand-in for Scan 2.0's ``scan hub`` (the older Hub dialect), for the client's tests: it speaks the dialect as
Scan's source does (``hub`` ... ``wait``, ``set``, ``init`` ... ``ready``, ``pos``, ``time``/``depth``, ``go`` ...
``move MOVE``) and plays the first legal move in square order. It logs what it heard to the file named by its
first argument, so a test can check what the client sent."""

import sys

from engine import legal_moves, variant
from engine.tools.hub import move_text, parse_position

log = open(sys.argv[1], "a")
position = None
for line in sys.stdin:
    log.write(line)
    log.flush()
    words = line.split()
    if not words:
        continue
    if words[0] == "hub":
        print("name Stand-in\nwait", flush=True)
    elif words[0] == "init":
        print("ready", flush=True)
    elif words[0] == "pos":
        text = words[1]
        if text[0] not in "wb":
            print("error bad position", flush=True)
            continue
        position = parse_position(variant("international"), text[0].upper() + text[1:])
    elif words[0] == "go":
        move = min(legal_moves(position), key=lambda m: (m.start, m.end))
        print(f"info 1 1.0 0 1 0.00 0.0 {move_text(move)}\nmove {move_text(move)}", flush=True)
    elif words[0] == "quit":
        break
