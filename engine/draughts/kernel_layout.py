"""The draughts kernel's arrays as its callers fill and size them: the rules vector that describes a variant
(``R_*``), the generation modes (``MODE_*``), and the move list's and the capture paths' sizes.

Plain constants, no compiled code: ``engine.draughts.kernel`` reads them, and numba takes their values into the
code it compiles there (so ``engine.compiled_cache`` counts this file among the kernels' sources).
"""

# Layout of the rules vector (uint64) that describes a variant to the kernel.
R_HALF = 0  # squares per row: 4 on 8x8, 5 on 10x10
R_BOARD = 1  # mask of the playable bits
R_PROMO_WHITE = 2  # row where White men are crowned (the top row)
R_PROMO_BLACK = 3  # row where Black men are crowned (the bottom row)
R_FLYING = 4  # kings move and capture at any distance
R_MEN_BACK = 5  # men capture backwards too
R_MAJORITY = 6  # the capture of the most pieces is compulsory
R_CROWN_MID = 7  # a man crowned during a capture goes on capturing as a king
RULES_LEN = 8

# Generation modes (bit flags) used by notation to explain why a move is illegal.
MODE_LEGAL = 0
MODE_QUIET_ONLY = 1  # quiet moves, as if no capture were compulsory
MODE_NO_MAJORITY = 2  # every complete capture, ignoring the majority rule
MODE_ALL_PATHS = 4  # keep capture paths that only differ in landing squares
MODE_CAPTURES_ONLY = 8  # captures only: an empty list when no capture is on (quiescence search)

# A move list holds at most this many moves. The largest known legal move
# counts of the four variants stay far below it (International: about 150).
MAX_MOVES = 1024
# Landing squares of one capture plus its start: at most 20 enemy men can be
# taken on 10x10, so 21 entries; rounded up.
MAX_PATH = 24
MOVE_COLS = 4  # from, to, captured, crowns
