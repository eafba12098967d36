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

// options: {layout, colours, entry, flipped, selected: [[r, c]...], targets: [[r, c]...], lit: [[r, c]...],
// arrow: [[r, c]...]} (lit: the pieces that may move, ringed after a click on one that may not; arrow: a move's
// cells, drawn over the pieces as an arrow from the first to the last: the analysis's better move)
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
  for (const [r, c, text] of layout.labels) {
    const [x, y] = xy(r, c);
    const t = svg("text", { x: x + 3, y: y + 12, "font-size": 11, fill: colours.square_text }, root);
    t.textContent = text;
  }
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
    const white = kind === "w" || kind === "W";
    const g = svg("g", Object.assign({ class: "piece", "data-piece": kind, "data-cell": `${r},${c}` }, extra || {}), root);
    svg("circle", { cx, cy, r: CELL * 0.4, fill: white ? colours.white_piece : colours.black_piece,
                    stroke: white ? colours.white_edge : colours.black_edge, "stroke-width": 2.5 }, g);
    if (kind === "W" || kind === "B") {
      svg("circle", { cx, cy, r: CELL * 0.2, fill: "none", stroke: white ? colours.white_crown : colours.black_crown,
                      "stroke-width": 4 }, g);
    }
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
// or each square on the way when more than one way leads there; a drag from a square to another is two clicks.
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

  function chosen(move) {
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

  function press(cell, release) {
    if (!cell) return;
    if (release) {
      // a drag ends on another square: that square is the next click
      if (pressed && !sameCell(pressed, cell)) choose(cell);
      pressed = null;
      return;
    }
    pressed = cell;
    choose(cell);
  }

  // listen to a newly drawn board (drawBoard's svg)
  function attach(svgEl) {
    svgEl.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      press(svgEl.cellAt(e.clientX, e.clientY), false);
    });
    svgEl.addEventListener("pointerup", (e) => { press(svgEl.cellAt(e.clientX, e.clientY), true); });
  }

  // a new position: nothing lit from before
  function clear() { lighting = false; }

  return { candidates, targets, lit, clear, attach };
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

// The board colours' menu: fills ``select`` with the themes (by their names in the page's language), shows
// ``current``, keeps the one chosen in the browser (every page starts with it) and calls ``changed(name)``. Once
// chosen, the menu lets go of the keyboard, so that the arrow keys step through the moves again.
function themeMenu(select, current, changed) {
  for (const [name, words] of Object.entries(THEME_NAMES)) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = words();
    select.appendChild(option);
  }
  select.value = current;
  select.addEventListener("change", () => {
    localStorage.setItem("theme", select.value);
    select.blur();
    changed(select.value);
  });
}
const THEME_NAMES = { wood: () => tr("Wood"), contrast: () => tr("High contrast") };  // (renders.themes' names)
