"""Published perft counts, the test oracle for move generation.

A move is identified by (from, to, set of captured pieces): capture paths that
differ only in landing squares are one move (FMJD convention).

Sources:
- English: OEIS A133046 (Schaeffer; Bik). Computed counting duplicate capture
  paths, which only matters once kings appear (depth 12 and more).
- International: Aart Bik's BikDam post and the FMJD forum perft thread
  (t=2308), also in rhalbersma/dctl's tests.
- Russian and Brazilian: rhalbersma/dctl test/src/ai/traversal/initial/board8x8.cpp.
- Random178 and Woldouby: rhalbersma/dctl test/src/ai/traversal/international/fmjd.cpp,
  citing the FMJD forum (t=2308).
"""

START = {
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128],
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763, 1665861398],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830],
}

# International test positions: (name, FEN, counts from depth 1)
POSITIONS = [
    ("random178", "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
     [14, 55, 1168, 5432, 87195, 629010]),
    ("woldouby", "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
     [6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050]),
]
