// The analysis board: a position of any game (its start, a FEN, a game's position, or one set up by hand), where
// the reader tries their own moves (clicked, dragged or typed) and the engine looks at each position: its score for
// White, on the bar beside the board and in words, and its best line, whose first move is an arrow on the board.
// The server replays the moves (``/api/board``) and searches (``/api/board/eval``, one position at a time); the
// address keeps the game, start and moves, so that a link gives the same board.
"use strict";

const query = new URLSearchParams(location.search);
const lab = {
  variant: query.get("variant") || "english",
  start: query.get("start") || "",                                  // a FEN; "" for the game's usual start
  moves: (query.get("moves") || "").split(" ").filter(Boolean),      // the moves from there, as full texts
  data: null,      // the server's board: {board, themes, start, fen, moves, entries, legal, over}
  view: -1,        // the position shown; -1 the last
  clicks: [],      // cells of the move being chosen
  flipped: false,
  drawn: null,     // the position the board showed last: the next one slides its move in
  looks: {},       // the engine's looks, by position (its game, start and moves)
  asking: null,    // the position whose look is being searched
  later: {},       // positions whose look was refused (the engine busy): when to ask again (Date.now())
  editing: null,   // while a position is set up by hand: {pieces: Map "r,c" -> kind}
};
const $ = (id) => document.getElementById(id);
const RETRY_MS = 4000;  // a look the server refused (the engine busy) is asked again after this long
let look = null;  // the board's look, as the reader set it (board.js's boardLook)

const input = moveInput(lab, {
  legal: () => (lab.data && !lab.editing ? lab.data.legalAt(shown()) : []),
  play,
  say: (text) => { $("notice").textContent = text; },
  redraw: () => render(),
});

function shown() {
  const last = lab.data.entries.length - 1;
  return lab.view < 0 ? last : Math.min(lab.view, last);
}

// The board after the moves: asked of the server, which refuses a start or a move that is not legal (and then
// nothing changes).
async function load(variant, start, moves) {
  let response, data;
  try {
    response = await fetch("/api/board", { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify({ variant, start, moves }) });
    data = await response.json();
  } catch (error) {
    $("notice").textContent = tr("The server is not answering, so nothing changed. Try again in a moment.");
    return false;
  }
  if (!response.ok) {
    $("notice").textContent = data.error;
    return false;
  }
  // the legal moves of the last position come with the board; an earlier one's are asked when it is shown, once at a
  // time, and after a failure not again until RETRY_MS later
  const legal = { [data.entries.length - 1]: data.legal }, asked = {};
  data.legalAt = (index) => legal[index] || [];
  data.ask = async (index) => {
    if (index in legal || (asked[index] || 0) > Date.now()) return;
    asked[index] = Date.now() + RETRY_MS;
    const earlier = await fetch("/api/board", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant, start, moves: data.moves.slice(0, index) }) }).then((r) => r.json()).catch(() => null);
    if (earlier && earlier.legal) legal[index] = earlier.legal;
    if (lab.data === data && shown() === index) render();
  };
  Object.assign(lab, { variant, start, moves: data.moves, data, clicks: [] });
  $("notice").textContent = "";
  const where = new URLSearchParams({ variant, ...(start ? { start } : {}), ...(data.moves.length ? { moves: data.moves.join(" ") } : {}) });
  history.replaceState(null, "", `/analysis?${where}`);
  return true;
}

async function play(move) {
  const index = shown();
  if (await load(lab.variant, lab.start, lab.moves.slice(0, index).concat([move.text]))) lab.view = -1;
  render();
}

// The position shown, as the engine's looks are kept.
function positionKey(index) {
  return JSON.stringify([lab.variant, lab.start, lab.moves.slice(0, index)]);
}

// The engine's look at the position shown: kept once found; one question at a time (the server's rule too), the
// position shown when the answer comes asked next.
async function askLook() {
  const index = shown(), key = positionKey(index);
  if (lab.editing || key in lab.looks || lab.asking !== null || (lab.later[key] || 0) > Date.now()) return;
  lab.asking = key;
  showEngine();
  let answer;
  try {
    const response = await fetch("/api/board/eval", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant: lab.variant, start: lab.start, moves: lab.moves.slice(0, index) }) });
    answer = await response.json();
  } catch (error) {
    answer = { error: tr("The server is not answering. Reload the page to try again.") };
  }
  lab.asking = null;
  if (!answer.error) lab.looks[key] = answer;
  else {  // asked again after a while, if the position is still shown then; never at once
    $("notice").textContent = answer.error;
    lab.later[key] = Date.now() + RETRY_MS;
    setTimeout(() => { if (positionKey(shown()) === key) render(); }, RETRY_MS);
  }
  render();
}

// The engine's words and bar for the position shown: its score for White (or the side a forced result favours) and
// its best line; "looking…" meanwhile.
function showEngine() {
  const index = shown(), seen = lab.looks[positionKey(index)];
  const over = index === lab.data.entries.length - 1 && lab.data.over;
  if (!seen) {
    $("score").textContent = lab.editing ? "" : over || tr("The engine is looking…");
    $("best-line").replaceChildren();
    return;
  }
  let words;
  if (seen.winner) words = tr("A forced win for {colour}.", { colour: colourName(seen.winner) });
  else words = tr("{score} for White", { score: formatScore(seen.score) });
  $("score").textContent = over ? `${over} ${words}` : words;
  if (seen.line.length) writeWithMoves($("best-line"), [[tr("Best line: {line}"), { line: seen.line.join(" ") }]]);
  else $("best-line").replaceChildren();
  const white = (1 + seen.chances) / 2;  // White's share of the bar, as the graph draws the chances
  $("eval-white").style.height = `${(white * 100).toFixed(1)}%`;
  $("eval-bar").setAttribute("aria-valuenow", seen.chances.toFixed(2));
  $("eval-bar").title = words;
}

function render() {
  const data = lab.data;
  if (!data) return;
  const colours = data.themes[look.theme] || data.themes.wood;
  const index = shown();
  let entry = data.entries[index];
  if (lab.editing) entry = { pieces: [...lab.editing.pieces].map(([cell, kind]) => [...cell.split(",").map(Number), kind]),
                             move: null, turn: $("setup-turn").value };
  const animate = !lab.editing && lab.drawn === index - 1 && entry.move && entry.move.text !== input.dropped();
  if (animate) moveSound(look, entry.move.captured.length > 0);
  lab.drawn = index;
  const seen = lab.looks[positionKey(index)];
  const arrow = !lab.editing && seen && seen.best_path ? seen.best_path : null;
  const svgEl = drawBoard($("board"), { layout: data.board, colours, entry, flipped: lab.flipped, numbers: look.numbers,
                                        animate, arrow, selected: lab.clicks, targets: input.targets(), lit: input.lit() });
  if (lab.editing) svgEl.addEventListener("pointerdown", (e) => setPiece(svgEl.cellAt(e.clientX, e.clientY)));
  else input.attach(svgEl);
  look.numbered(data.board);
  $("eval-bar").classList.toggle("flipped", lab.flipped);

  document.title = tr("Draughts bot: analysis board");
  $("title").textContent = `${data.title} · ${tr("analysis board")}`;
  $("variant").value = lab.variant;
  if (document.activeElement !== $("fen")) $("fen").value = index === data.entries.length - 1 ? data.fen : "";
  $("fen").placeholder = tr("FEN of a position, to load");
  $("status").textContent = lab.editing ? "" : tr("{colour} to move.", { colour: colourName(entry.turn) });
  $("setup").hidden = !lab.editing;
  $("board-tools").hidden = Boolean(lab.editing);
  $("edit").hidden = !data.board.labels.length;  // (a numbered draughts board: Tablut is set up from a FEN)
  showMoves(index);
  showEngine();
  if (!lab.editing) {
    data.ask(index);
    askLook();
  }
}

function showMoves(index) {
  showMoveList($("moves"), lab.data.entries, index, goTo, lab.data.board.first);
}

function goTo(i) {
  if (!lab.data || lab.editing) return;
  const last = lab.data.entries.length - 1;
  lab.view = i >= last ? -1 : Math.max(0, i);
  lab.clicks = [];
  render();
}

// Setting a position up by hand: the chosen piece (or none) on a clicked dark square; Done asks the server for its
// FEN and loads it.
function startEditing() {
  const entry = lab.data.entries[shown()];
  lab.editing = { pieces: new Map(entry.pieces.map(([r, c, kind]) => [`${r},${c}`, kind])) };
  $("setup-turn").value = entry.turn;
  lab.clicks = [];
  render();
}

function setPiece(cell) {
  if (!cell || !lab.editing) return;
  const key = cell.join(",");
  if (!lab.data.board.playable.some(([r, c]) => r === cell[0] && c === cell[1])) return;
  const brush = document.querySelector("input[name=brush]:checked").value;
  if (brush) lab.editing.pieces.set(key, brush);
  else lab.editing.pieces.delete(key);
  render();
}

async function finishEditing() {
  const pieces = [...lab.editing.pieces].map(([cell, kind]) => [...cell.split(",").map(Number), kind]);
  let response, answer;
  try {
    response = await fetch("/api/board/setup", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant: lab.variant, pieces, turn: $("setup-turn").value }) });
    answer = await response.json();
  } catch (error) {
    $("notice").textContent = tr("The server is not answering, so nothing changed. Try again in a moment.");
    return;
  }
  if (!response.ok) {
    $("notice").textContent = answer.error;
    return;
  }
  lab.editing = null;
  if (await load(lab.variant, answer.fen, [])) lab.view = -1;
  render();
}

function typed(event) {
  event.preventDefault();
  const text = $("move-text").value;
  if (!text.trim() || !lab.data) return;
  const [move, problem] = typedMove(text, lab.data.legalAt(shown()));
  $("notice").textContent = problem;
  if (!move) return;
  $("move-text").value = "";
  play(move);
}

async function setUp() {
  look = boardLook(render);
  replayControls(goTo, shown, () => Boolean(lab.data));
  $("flip").addEventListener("click", () => { lab.flipped = !lab.flipped; render(); });
  $("typed").addEventListener("submit", typed);
  $("fen-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await load(lab.variant, $("fen").value.trim(), [])) lab.view = -1;
    render();
  });
  $("variant").addEventListener("change", async () => {
    $("variant").blur();
    lab.editing = null;
    if (await load($("variant").value, "", [])) lab.view = -1;
    render();
  });
  $("reset").addEventListener("click", async () => {
    if (await load(lab.variant, "", [])) lab.view = -1;
    render();
  });
  $("edit").addEventListener("click", startEditing);
  $("setup-done").addEventListener("click", finishEditing);
  $("setup-clear").addEventListener("click", () => { lab.editing.pieces.clear(); render(); });
  $("setup-cancel").addEventListener("click", () => { lab.editing = null; render(); });
  $("setup-turn").addEventListener("change", render);
  if (!(await load(lab.variant, lab.start, lab.moves))) {  // a link with a start or moves that do not hold
    const refused = $("notice").textContent;
    const games = [...$("variant").options].map((option) => option.value);
    await load(games.includes(lab.variant) ? lab.variant : games[0], "", []);
    $("notice").textContent = refused;
  }
  render();
}

setUp();
