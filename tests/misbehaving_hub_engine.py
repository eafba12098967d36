"""A Hub engine (version 2) that misbehaves when asked to search, as its first argument says: ``hang`` (never
answers, and ignores ``stop``), ``slow`` (answers only when told to ``stop``), ``crash`` (ends at once),
``illegal`` (answers a move that is not legal), ``garbage`` (answers words that are no move), ``error`` (answers
an ``error`` line). Before that it speaks the protocol as it should, so a client gets as far as searching."""

import sys

mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "hub":
        print('id name=Misbehaving version=1\nparam name=variant value=normal type=enum values="normal english"\n'
              "wait", flush=True)
    elif words[0] == "init":
        print("ready", flush=True)
    elif words[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "illegal":
            print("info depth=1 score=0.00\ndone move=46-41", flush=True)  # 41 is taken
        elif mode == "garbage":
            print("done move=hello", flush=True)
        elif mode == "error":
            print('error message="out of memory"', flush=True)
    elif words[0] == "stop" and mode == "slow":
        print("done move=32-28", flush=True)
    elif words[0] == "quit":
        break
