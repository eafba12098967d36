// Draws a board as SVG from what the server sends: the layout, one position (an entry) and a theme; and what the
// pages that show one share: the move input (a move chosen by clicking) and the board colours' menu.
// Everything is built with DOM calls and textContent, never from markup, so no text can become markup.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 60;   // one square, in SVG units
const EDGE = 22;   // the frame, where coordinates are written

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

function sameCell(a, b) { return a[0] === b[0] && a[1] === b[1]; }

// options: {layout, colours, entry, flipped, numbers, animate, selected: [[r, c]...], targets: [[r, c]...],
// lit: [[r, c]...], arrow: [[r, c]...]} (numbers: where a numbered board's square numbers are written, "frame" (the
// default, as lidraughts does), "squares" or "none"; animate: the entry's move slides there; lit: the pieces that may
// move, ringed after a click on one that may not; arrow: a move's cells, drawn over the pieces as an arrow from the
// first to the last: the analysis's better move)
// returns the svg element; its cellAt(clientX, clientY) gives the board cell under a point, or null.
function drawBoard(container, options) {
  const { layout, colours, entry, flipped } = options;
  const n = layout.size;
  const side = n * CELL + 2 * EDGE;
  const root = svg("svg", { viewBox: `0 0 ${side} ${side}`, role: "img" });
  const place = (r, c) => flipped ? [n - 1 - r, n - 1 - c] : [r, c];
  const xy = (r, c) => { const [pr, pc] = place(r, c); return [EDGE + pc * CELL, EDGE + pr * CELL]; };
  const centre = (r, c) => { const [x, y] = xy(r, c); return [x + CELL / 2, y + CELL / 2]; };
  const playable = new Set(layout.playable.map(([r, c]) => r * n + c));
  const allPlayed = layout.playable.length === 0;

  svg("rect", { x: 0, y: 0, width: side, height: side, fill: colours.frame }, root);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [x, y] = xy(r, c);
      const dark = !allPlayed && playable.has(r * n + c);
      svg("rect", { x, y, width: CELL, height: CELL, fill: dark ? colours.dark : colours.light,
                    stroke: allPlayed ? colours.dark : "none", "stroke-width": 1, "data-cell": `${r},${c}` }, root);
    }
  }
  const markFill = { throne: colours.dark, camp: colours.highlight, escape: colours.target };
  for (const [r, c, kind] of layout.marks) {
    const [x, y] = xy(r, c);
    svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, fill: markFill[kind] || colours.dark,
                  opacity: 0.35, class: `mark-${kind}` }, root);
  }
  drawNumbers(root, layout, options.numbers || "frame", colours, place, xy);
  const files = flipped ? [...layout.files].reverse() : [...layout.files];
  files.forEach((f, i) => {
    for (const y of [EDGE - 6, side - 6]) {
      const t = svg("text", { x: EDGE + i * CELL + CELL / 2, y, "font-size": 13, fill: colours.frame_text,
                              "text-anchor": "middle" }, root);
      t.textContent = f;
    }
  });
  const ranks = flipped ? [...layout.ranks].reverse() : [...layout.ranks];
  ranks.forEach((rk, i) => {
    for (const x of [EDGE / 2, side - EDGE / 2]) {
      const t = svg("text", { x, y: EDGE + i * CELL + CELL / 2 + 5, "font-size": 13, fill: colours.frame_text,
                              "text-anchor": "middle" }, root);
      t.textContent = rk;
    }
  });

  const move = entry.move;
  if (move) {
    for (const [r, c] of move.path) {
      const [x, y] = xy(r, c);
      svg("rect", { x, y, width: CELL, height: CELL, fill: colours.highlight, opacity: 0.55, class: "last-move" }, root);
    }
  }
  const drawPiece = (r, c, kind, extra) => {
    const [cx, cy] = centre(r, c);
    const g = svg("g", Object.assign({ class: "piece", "data-piece": kind, "data-cell": `${r},${c}` }, extra || {}), root);
    drawMan(g, cx, cy, kind, colours);
    return g;
  };
  if (move) {
    for (const [r, c, kind] of move.captured) {
      if (kind) drawPiece(r, c, kind, { opacity: colours.ghost_alpha, class: "piece captured" });
    }
    if (move.path.length > 1) {
      const points = move.path.map(([r, c]) => centre(r, c).join(",")).join(" ");
      svg("polyline", { points, fill: "none", stroke: colours.path, "stroke-width": 4, opacity: 0.7,
                        "stroke-linecap": "round", "stroke-linejoin": "round" }, root);
    }
  }
  for (const [r, c, kind] of entry.pieces) drawPiece(r, c, kind);
  for (const [r, c] of options.selected || []) {
    const [x, y] = xy(r, c);
    svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: colours.target,
                  "stroke-width": 4, class: "selected" }, root);
  }
  for (const [r, c] of options.lit || []) {
    const [cx, cy] = centre(r, c);
    svg("circle", { cx, cy, r: CELL * 0.46, fill: "none", stroke: colours.target, "stroke-width": 5,
                    class: "movable", "data-cell": `${r},${c}` }, root);
  }
  for (const [r, c] of options.targets || []) {
    const [cx, cy] = centre(r, c);
    svg("circle", { cx, cy, r: CELL * 0.13, fill: colours.target, class: "target", "data-cell": `${r},${c}` }, root);
  }

  if (options.arrow && options.arrow.length > 1) drawArrow(root, options.arrow.map(([r, c]) => centre(r, c)));
  if (options.animate && move && move.path.length > 1) {
    slide(root, move.path.map(([r, c]) => centre(r, c)), move.path[move.path.length - 1].join(","));
  }

  root.cellAt = (clientX, clientY) => {
    const box = root.getBoundingClientRect();
    const px = (clientX - box.left) / box.width * side - EDGE;
    const py = (clientY - box.top) / box.height * side - EDGE;
    const pc = Math.floor(px / CELL), pr = Math.floor(py / CELL);
    if (pr < 0 || pc < 0 || pr >= n || pc >= n) return null;
    return flipped ? [n - 1 - pr, n - 1 - pc] : [pr, pc];
  };
  container.replaceChildren(root);
  return root;
}

// A piece as the board images draw it (renders.drawing.sprite): a disc, a ring inside it, and a king's crown.
function drawMan(g, cx, cy, kind, colours) {
  const white = kind === "w" || kind === "W";
  const edge = white ? colours.white_edge : colours.black_edge;
  const r = CELL * 0.4;
  svg("circle", { cx, cy, r, fill: white ? colours.white_piece : colours.black_piece, stroke: edge,
                  "stroke-width": CELL * 0.035 }, g);
  svg("circle", { cx, cy, r: r * 0.72, fill: "none", stroke: edge, "stroke-width": CELL * 0.0175 }, g);
  if (kind === "W" || kind === "B") {
    const left = cx - 0.52 * r, right = cx + 0.52 * r;
    const bottom = cy + 0.34 * r, top = cy - 0.42 * r, valley = cy - 0.02 * r;
    const points = [[left, bottom], [left, top], [cx - 0.26 * r, valley], [cx, top - 0.08 * r],
                    [cx + 0.26 * r, valley], [right, top], [right, bottom]];
    svg("polygon", { points: points.map((p) => p.join(",")).join(" "), class: "crown",
                     fill: white ? colours.white_crown : colours.black_crown, stroke: edge, "stroke-width": 1 }, g);
  }
}

// A numbered board's square numbers: on every dark square ("squares"), or on the frame ("frame"): above and below
// the top and bottom rows' squares, and beside each row's square at either edge, so that every row's first or last
// number can be read at a glance; none at all with "none".
function drawNumbers(root, layout, where, colours, place, xy) {
  const n = layout.size;
  for (const [r, c, text] of layout.labels) {
    const [x, y] = xy(r, c);
    if (where === "squares") {
      const t = svg("text", { x: x + 3, y: y + 12, "font-size": 11, fill: colours.square_text, class: "number" }, root);
      t.textContent = text;
      continue;
    }
    if (where !== "frame") return;
    const [pr, pc] = place(r, c);
    const spots = [];
    if (pr === 0) spots.push([x + CELL / 2, EDGE - 6]);
    if (pr === n - 1) spots.push([x + CELL / 2, y + CELL + EDGE - 6]);
    if (pc === 0) spots.push([EDGE / 2, y + CELL / 2 + 4]);
    if (pc === n - 1) spots.push([x + CELL + EDGE / 2, y + CELL / 2 + 4]);
    for (const [tx, ty] of spots) {
      const t = svg("text", { x: tx, y: ty, "font-size": 15, fill: colours.frame_text,
                              "text-anchor": "middle", class: "number" }, root);
      t.textContent = text;
    }
  }
}

const SLIDE_MS = 140;  // each leg of a move's slide; a capture of several pieces takes a leg for each

// The moved piece (the one on ``cell``, "r,c") slides along the move's ``points`` to where it stands now.
function slide(root, points, cell) {
  const [ex, ey] = points[points.length - 1];
  const piece = root.querySelector(`g.piece:not(.captured)[data-cell="${cell}"]`);
  if (!piece || !piece.animate) return;
  const frames = points.map(([x, y]) => ({ transform: `translate(${x - ex}px, ${y - ey}px)` }));
  piece.animate(frames, { duration: SLIDE_MS * (points.length - 1), easing: "ease-in-out" });
}

const ARROW = "#15803d";  // the better move's arrow, as analysis boards draw it: a green that reads on both themes
const ARROW_WIDTH = CELL * 0.16;
const ARROW_HEAD = 3;     // the head's length and width, in line widths

// An arrow through ``points`` (SVG units): a line, then a head whose tip is on the last point. Clicks pass through.
function drawArrow(root, points) {
  const defs = svg("defs", {}, root);
  const marker = svg("marker", { id: "arrow-head", viewBox: "0 0 10 10", refX: 0, refY: 5, markerWidth: ARROW_HEAD,
                                 markerHeight: ARROW_HEAD, orient: "auto", markerUnits: "strokeWidth" }, defs);
  svg("path", { d: "M0,0 L10,5 L0,10 z", fill: ARROW }, marker);
  // the line stops where the head starts, so that the head's tip, not the line's end, is on the last cell
  const [x1, y1] = points[points.length - 2], [x2, y2] = points[points.length - 1];
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const back = Math.min(ARROW_HEAD * ARROW_WIDTH, length * 0.6);
  const line = points.slice(0, -1).concat([[x2 - (x2 - x1) / length * back, y2 - (y2 - y1) / length * back]]);
  svg("polyline", { id: "better-arrow", class: "arrow", points: line.map((p) => p.join(",")).join(" "), fill: "none",
                    stroke: ARROW, "stroke-width": ARROW_WIDTH, "stroke-linecap": "round", "stroke-linejoin": "round",
                    opacity: 0.85, "marker-end": "url(#arrow-head)", "pointer-events": "none" }, root);
}

// A move chosen by clicking on the board (the game page's and the puzzle page's input): a piece, then where it goes,
// or each square on the way when more than one way leads there; a drag from a square to another is two clicks, the
// piece following the pointer on the way.
// ``holder.clicks`` keeps the cells chosen so far. ``legal()``: the moves ({path, text}) that may be played now
// (none: clicks choose nothing); ``play(move)``: the move chosen (the clicks are cleared first); ``say(text)``: why
// a click chose nothing ("" clears it); ``redraw()``: draw the board again, with ``targets()`` marked and ``lit()``
// ringed (after a click on a piece that cannot move: the pieces that can, such as those that must capture).
function moveInput(holder, { legal, play, say, redraw }) {
  let pressed = null;
  let lighting = false;  // the last click was on a piece without a move: the movable pieces are lit

  // the moves that go through the cells clicked so far
  const candidates = () => legal().filter(
    (m) => holder.clicks.every((cell, i) => i < m.path.length && sameCell(m.path[i], cell)));

  // where the next click may go
  function targets() {
    const k = holder.clicks.length;
    return k ? candidates().filter((m) => m.path.length > k).map((m) => m.path[k]) : [];
  }

  // the pieces that may move now, while they are to be lit (each once)
  function lit() {
    if (!lighting) return [];
    const cells = [];
    for (const m of legal()) if (!cells.some((c) => sameCell(c, m.path[0]))) cells.push(m.path[0]);
    return cells;
  }

  let dropping = false;  // the move being chosen was dropped there by a drag
  let dropped = null;    // the text of the last move chosen by a drag (not slid again when it comes back played)

  function chosen(move) {
    dropped = dropping ? move.text : null;
    holder.clicks = [];
    lighting = false;
    play(move);
  }

  function choose(cell) {
    const moves = legal();
    lighting = false;
    if (!moves.length) return;
    const startsHere = moves.some((m) => sameCell(m.path[0], cell));
    if (holder.clicks.length === 0 || (holder.clicks.length === 1 && startsHere && !sameCell(holder.clicks[0], cell))) {
      holder.clicks = startsHere ? [cell] : [];
      if (!startsHere) {
        lighting = true;
        say(tr("That piece has no move; the lit pieces' moves come first."));
      } else say("");
      redraw();
      return;
    }
    if (sameCell(holder.clicks[0], cell)) {  // the piece chosen again: start its move over
      holder.clicks = [cell];
      redraw();
      return;
    }
    const before = candidates();
    holder.clicks = holder.clicks.concat([cell]);
    const left = candidates();
    if (left.length === 0) {
      // a click on a move's last square, skipping those between, when only one move ends there
      const ending = before.filter((m) => sameCell(m.path[m.path.length - 1], cell));
      holder.clicks = holder.clicks.slice(0, -1);
      if (ending.length === 1) return chosen(ending[0]);
      if (!ending.length && startsHere) holder.clicks = [cell];  // another piece: its moves instead
      say(ending.length ? tr("More than one way leads there: click each square on the way.") : "");
      redraw();
      return;
    }
    const texts = new Set(left.map((m) => m.text));
    if (texts.size === 1) return chosen(left[0]);
    redraw();
  }

  let board = null;      // the board drawn last (attach's), whose cells the pointer is over
  let dragging = null;   // a piece held down: {cell, x, y}, where the pointer went down; it follows the pointer

  function press(cell, at) {
    if (!cell) return;
    pressed = cell;
    choose(cell);
    // a piece picked up (now the move's first square): it follows the pointer until it is let go
    const picked = holder.clicks.length === 1 && sameCell(holder.clicks[0], cell);
    dragging = picked ? { cell, x: at[0], y: at[1], moved: false } : null;
  }

  // the held piece drawn where the pointer is, over the others
  function follow(clientX, clientY) {
    if (!dragging || !board) return;
    const piece = board.querySelector(`g.piece:not(.captured)[data-cell="${dragging.cell.join(",")}"]`);
    if (!piece) return;
    const box = board.getBoundingClientRect();
    const scale = board.viewBox.baseVal.width / box.width;
    dragging.moved = true;
    piece.parentNode.appendChild(piece);
    piece.classList.add("dragged");
    piece.setAttribute("transform", `translate(${(clientX - dragging.x) * scale} ${(clientY - dragging.y) * scale})`);
  }

  function release(clientX, clientY) {
    const held = dragging;
    dragging = null;
    const cell = board ? board.cellAt(clientX, clientY) : null;
    // a drag ends on another square: that square is the next click; anywhere else the piece goes back
    dropping = Boolean(held && held.moved);
    if (pressed && cell && !sameCell(pressed, cell)) choose(cell);
    else if (held && held.moved) redraw();
    dropping = false;
    pressed = null;
  }

  document.addEventListener("pointermove", (e) => follow(e.clientX, e.clientY));
  document.addEventListener("pointerup", (e) => { if (pressed) release(e.clientX, e.clientY); });
  document.addEventListener("pointercancel", () => { if (dragging) { dragging = null; pressed = null; redraw(); } });

  // listen to a newly drawn board (drawBoard's svg)
  function attach(svgEl) {
    board = svgEl;
    svgEl.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      press(svgEl.cellAt(e.clientX, e.clientY), [e.clientX, e.clientY]);
    });
  }

  // a new position: nothing lit from before
  function clear() { lighting = false; }

  return { candidates, targets, lit, clear, attach, dropped: () => dropped };
}

// The move ``text`` names among ``moves`` ({path, text}), as the chat reads one: written as the move list writes it,
// or by its first and last squares alone ("11x25" for "11x18x25") when only one move joins them; and [null, why]
// when it names none, or more than one.
function typedMove(text, moves) {
  const words = text.trim().toLowerCase().replace(/[×:]/g, "x").replace(/\s+/g, "");
  if (!moves.length) return [null, tr("It is not your turn.")];
  const exact = moves.filter((m) => m.text.toLowerCase() === words);
  if (exact.length === 1) return [exact[0], ""];
  const ends = (t) => { const squares = t.split(/[-x]/); return [squares[0], squares[squares.length - 1]].join(); };
  const joined = moves.filter((m) => ends(m.text.toLowerCase()) === ends(words) && /^\w+([-x]\w+)+$/.test(words));
  if (joined.length === 1) return [joined[0], ""];
  if (joined.length > 1) return [null, tr("More than one move goes there: write each square, as {move}.",
                                         { move: joined[0].text })];
  return [null, tr("{move} is not a move here. Your moves: {moves}.",
                   { move: text.trim(), moves: moves.map((m) => m.text).join(", ") })];
}

// Fill the move list ``list`` with the moves of ``entries`` (each one's ``move``, if any), a numbered line for each
// pair as records write them ("12. 26x17 11-15"; "1. ... 11-15" when the side that moves second in the game,
// ``first`` the colour that moves first, is to move at the start), the one shown (``index``) marked; a click on one
// calls ``goTo`` with its position. The move shown is kept in sight.
function showMoveList(list, entries, index, goTo, first) {
  list.replaceChildren();
  const late = first && entries.length && entries[0].turn !== first ? 1 : 0;  // the start: the second side to move
  let item = null;
  entries.forEach((entry, i) => {
    if (!entry.move) return;
    const half = i - 1 + late;  // moves before this one, counted from the game's first side
    if (half % 2 === 0 || !item) {
      item = document.createElement("li");
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = half % 2 === 0 ? `${half / 2 + 1}.` : `${(half - 1) / 2 + 1}. …`;
      item.appendChild(number);
      list.appendChild(item);
    }
    const button = document.createElement("button");
    button.className = i === index ? "move current" : "move";
    button.dataset.ply = i;
    button.textContent = entry.move.text;
    button.addEventListener("click", () => goTo(i));
    item.append(" ", button);
  });
  keepInView(list);
}

// The replay's buttons and keys (◀◀ ◀ ▶ ▶▶ and Home, ←, →, End; not while typing in a field): ``goTo(i)`` shows
// position i (Infinity: the latest), ``shown()`` is the one shown, ``ready()`` whether there is anything to step
// through; ``other(key)`` may take another key first (true: taken).
function replayControls(goTo, shown, ready, other = () => false) {
  document.getElementById("first").addEventListener("click", () => goTo(0));
  document.getElementById("back").addEventListener("click", () => goTo(shown() - 1));
  document.getElementById("forward").addEventListener("click", () => goTo(shown() + 1));
  document.getElementById("last").addEventListener("click", () => goTo(Infinity));
  document.addEventListener("keydown", (e) => {
    if (!ready() || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (other(e.key)) { /* taken */ }
    else if (e.key === "ArrowLeft") goTo(shown() - 1);
    else if (e.key === "ArrowRight") goTo(shown() + 1);
    else if (e.key === "Home") goTo(0);
    else if (e.key === "End") goTo(Infinity);
    else return;
    e.preventDefault();
  });
}

// Scroll the move list ``list`` (its own scroll, never the window's) so that its current move is in sight: stepping
// through a long game with the keys keeps the move shown visible.
function keepInView(list) {
  const current = list.querySelector(".current");
  if (!current) return;
  const top = current.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  const bottom = top + current.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

// Fill ``element`` with ``sentences``, joined by spaces: each a pair [template, values], the template a tr() text
// whose {placeholders} were left to fill with the values, which are moves ("22-27") or lines of them. Each move is
// a span that does not break, so that a line of moves wraps between moves, never inside one ("22-/27").
function writeWithMoves(element, sentences) {
  const parts = [];
  sentences.forEach(([template, values = {}], i) => {
    if (i) parts.push(" ");
    for (const piece of template.split(/(\{\w+\})/)) {
      const name = /^\{(\w+)\}$/.exec(piece);
      if (!name || !(name[1] in values)) {
        if (piece) parts.push(piece);
        continue;
      }
      String(values[name[1]]).split(" ").forEach((word, j) => {
        const move = document.createElement("span");
        move.className = "line-move";
        move.textContent = word;
        parts.push(...(j ? [" "] : []), move);
      });
    }
  });
  element.replaceChildren(...parts);
}

// A menu of the board's settings: fills ``select`` with ``choices`` (value -> its words, a function), shows the one
// kept in the browser under ``key`` (or ``fallback``), keeps the one chosen (every page starts with it) and calls
// ``changed(value)``. Once chosen, the menu lets go of the keyboard, so that the arrow keys step through the moves.
function settingMenu(select, key, choices, fallback, changed) {
  for (const [value, words] of Object.entries(choices)) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = words();
    select.appendChild(option);
  }
  const kept = localStorage.getItem(key);
  select.value = kept in choices ? kept : fallback;
  select.addEventListener("change", () => {
    localStorage.setItem(key, select.value);
    select.blur();
    changed(select.value);
  });
  return select.value;
}

// The board's look as the reader set it: {theme, numbers, sound}, and the menus that set it (``menus``: the ids of
// the theme's and the numbers' selects and the sound's checkbox). The numbers' menu shows only on a numbered board
// (``numbered``); Russian and Brazilian boards have coordinates on the frame instead. ``changed()``: draw again.
function boardLook(changed) {
  const look = { theme: "wood", numbers: "frame", sound: localStorage.getItem("sound") === "on" };
  look.theme = settingMenu(document.getElementById("theme"), "theme", THEME_NAMES, "wood",
                           (value) => { look.theme = value; changed(); });
  look.numbers = settingMenu(document.getElementById("numbers"), "numbers", NUMBER_PLACES, "frame",
                             (value) => { look.numbers = value; changed(); });
  const sound = document.getElementById("sound");
  sound.checked = look.sound;
  sound.addEventListener("change", () => {
    look.sound = sound.checked;
    localStorage.setItem("sound", sound.checked ? "on" : "off");
    sound.blur();
  });
  look.numbered = (layout) => {
    document.getElementById("numbers-setting").hidden = !layout.labels.length;
  };
  return look;
}
const THEME_NAMES = { wood: () => tr("Wood"), contrast: () => tr("High contrast") };  // (renders.themes' names)
const NUMBER_PLACES = { frame: () => tr("On the frame"), squares: () => tr("On every square"), none: () => tr("None") };

let audio = null;  // made on the first sound: browsers let a page make sounds only after the reader did something

// The move's sound, when the reader turned it on: a short knock, lower for a capture. Made, not loaded: no file.
function moveSound(look, capture) {
  if (!look.sound || !window.AudioContext) return;
  audio = audio || new AudioContext();
  const now = audio.currentTime, tone = audio.createOscillator(), gain = audio.createGain();
  tone.frequency.setValueAtTime(capture ? 330 : 520, now);
  tone.frequency.exponentialRampToValueAtTime(capture ? 110 : 180, now + 0.08);
  gain.gain.setValueAtTime(0.25, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
  tone.connect(gain).connect(audio.destination);
  tone.start(now);
  tone.stop(now + 0.13);
}
