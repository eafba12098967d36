// A puzzle's page: the board at the puzzle's start, the solver's moves chosen by clicking, dragging or typing
// (board.js's move input), each one checked by the server, which answers with the defender's reply, "solved" or
// "wrong"; a wrong move is shown, then taken back, and the solver tries again. The solution is sent only once the
// puzzle is over (solved, or the Show the solution button). The first result on a puzzle changes the reader's
// puzzle rating (the server says how). On /puzzle/VARIANT/streak, puzzles of rising difficulty follow one another
// until the first miss, unrated: the streak is the score.
"use strict";

const [, , puzzleVariant, puzzleRef] = location.pathname.split("/");  // /puzzle/VARIANT/ID, .../daily, .../streak
const theme = new URLSearchParams(location.search).get("theme");  // the theme chosen for the next puzzles, if any
const REPLY_MS = 450;  // the pause before the defender's reply is played, so that the solver sees their move first
const WRONG_MS = 900;  // how long a wrong move is shown before it is taken back
const NEXT_MS = 1200;  // in a streak, the pause after a solved puzzle before the next one
const puzzle = {
  data: null,      // the puzzle's start: {id, variant, path, daily, board, themes, theme, solver, entry, legal}
  entries: [],     // the positions so far: the start, then one after each move played
  legal: [],       // the solver's moves now, as {path, text} (the server's; none once it is over)
  moves: [],       // the solver's moves the server took, as sent
  over: null,      // once over: the server's answer, {verdict: 'solved' | 'wrong' | 'shown', right, line, solution}
  view: -1,        // the position shown; -1: the latest
  clicks: [],      // cells of the move being chosen
  waiting: false,  // a move is being checked, or its reply is about to be played
  flipped: null,   // null: the solver's side at the bottom
  drawn: null,     // the position the board showed last: the next one slides its move in
  said: [],        // the status line: its sentences, as writeWithMoves takes them
  verdict: "",     // the status line's look: "", "right", "solved" or "wrong"
  rating: null,    // the server's word on the reader's puzzle rating: {before, after}, or {unrated: why}
  // a streak (its page only): the rung being solved (the puzzles solved so far), its seed, and whether it is over
  streak: puzzleRef === "streak" ? { rung: 0, seed: Math.floor(Math.random() * 2 ** 31), over: false } : null,
};
const $ = (id) => document.getElementById(id);
let look = null;  // the board's look, as the reader set it (board.js's boardLook)

const input = moveInput(puzzle, {
  legal: () => (puzzle.data && !puzzle.over && !puzzle.waiting && puzzle.view < 0 ? puzzle.legal : []),
  play,
  say: (text) => { $("notice").textContent = text; },
  redraw: () => render(),
});

function api(suffix = "") {
  if (!puzzle.data && puzzle.streak) {
    return `/api/streak/${puzzleVariant}?rung=${puzzle.streak.rung}&seed=${puzzle.streak.seed}`;
  }
  const ref = puzzle.data ? puzzle.data.id : puzzleRef;  // the daily page keeps its puzzle after midnight
  return `/api/puzzle/${puzzleVariant}/${ref}${suffix}`;
}

// A request that sends ``body`` as JSON (with the streak's word that it is not rated).
function posting(body) {
  return { method: "POST", headers: { "Content-Type": "application/json" },
           body: JSON.stringify(Object.assign({ streak: Boolean(puzzle.streak) }, body)) };
}

// The server's answer to a request, or null with the reason shown (a refused move changes nothing).
async function ask(options, suffix = "") {
  let response;
  try {
    response = await fetch(api(suffix), Object.assign({ cache: "no-store" }, options || {}));
  } catch (error) {
    $("notice").textContent = tr("The server is not answering, so nothing changed. Try again in a moment.");
    return null;
  }
  const data = await response.json().catch(() => ({ error: tr("The server answered {status}.", { status: response.status }) }));
  if (!response.ok) {
    $("notice").textContent = data.error || tr("The server answered {status}.", { status: response.status });
    return null;
  }
  return data;
}

async function load() {
  const data = await ask();
  if (!data) {
    $("status").textContent = "";
    return;
  }
  Object.assign(puzzle, { data, entries: [data.entry], legal: data.legal, moves: [], over: null, view: -1,
                          clicks: [], waiting: false, flipped: null, drawn: null, rating: null });
  say([[tr("Your move: click or drag a piece, or type the move.")]]);
  render();
}

// The server's word on the reader's puzzle rating, kept to show under the puzzle.
function rated(answer) {
  if (answer.rating) puzzle.rating = answer.rating;
  else if (answer.unrated) puzzle.rating = { unrated: answer.unrated };
}

// The status line: ``sentences`` as writeWithMoves takes them (its moves kept whole), and its look.
function say(sentences, verdict = "") {
  puzzle.said = sentences;
  puzzle.verdict = verdict;
}

async function play(move) {
  const moves = puzzle.moves.concat([move.text]);
  puzzle.waiting = true;
  $("notice").textContent = "";
  const before = [puzzle.said, puzzle.verdict];
  say([[tr("Checking your move…")]]);
  render();
  const answer = await ask(posting({ moves }));
  if (!answer) {  // refused: the position and the moves stay as they were
    puzzle.waiting = false;
    say(...before);
    render();
    return;
  }
  rated(answer);
  if (answer.verdict === "wrong") {
    missed(answer.entry);
    return;
  }
  puzzle.moves = moves;
  if (answer.verdict !== "right") {
    finish(answer);
    return;
  }
  const [mine, reply] = answer.entries;
  puzzle.entries.push(mine);
  say([[tr("Right: {move}."), { move: mine.move.text }]], "right");
  render();
  setTimeout(() => {
    puzzle.entries.push(reply);
    puzzle.legal = answer.legal;
    puzzle.waiting = false;
    say([[tr("Right! I answer {move}. Your move."), { move: answer.reply }]], "right");
    render();
  }, REPLY_MS);
}

// A wrong move: shown on the board, then taken back, and the solver tries again (in a streak, the streak ends and
// the answer is shown).
function missed(entry) {
  puzzle.entries.push(entry);
  say([[tr("{move} is not it."), { move: entry.move.text }]], "wrong");
  render();
  setTimeout(() => {
    puzzle.entries.pop();
    puzzle.waiting = false;
    if (puzzle.streak) {
      puzzle.streak.over = true;
      showSolution();
      return;
    }
    say([[tr("{move} is not it. Try again, or ask for the solution."), { move: entry.move.text }]], "wrong");
    render();
  }, WRONG_MS);
}

async function showSolution() {
  if (puzzle.over || puzzle.waiting || !puzzle.data) return;
  puzzle.waiting = true;
  render();
  const answer = await ask(posting({}), "/solution");
  puzzle.waiting = false;
  if (!answer) {
    render();
    return;
  }
  if (puzzle.streak) puzzle.streak.over = true;
  rated(answer);
  finish(answer);
}

// The puzzle is over: the whole line becomes the positions to step through, and the board shows the last move
// (solved) or the right one where the solver was to move (a wrong move, or the solution asked for).
function finish(answer) {
  const at = puzzle.entries.length - 1;  // where the solver was to move
  puzzle.over = answer;
  puzzle.legal = [];
  puzzle.clicks = [];
  puzzle.entries = answer.solution;
  const right = answer.solution[Math.min(at + 1, answer.solution.length - 1)];
  if (answer.verdict === "solved") {
    puzzle.view = -1;
    say([[tr("Solved! The whole line: {line}."), { line: answer.line }]], "solved");
    if (puzzle.streak) {  // the next rung, after a moment to see the last move
      puzzle.streak.rung += 1;
      setTimeout(next, NEXT_MS);
    }
  } else {
    puzzle.view = at + 1 >= answer.solution.length - 1 ? -1 : at + 1;
    say([[tr("The answer: {move}."), { move: right.move.text }], [tr("The whole line: {line}."), { line: answer.line }]]);
  }
  render();
}

// A streak's next puzzle: the rung it has climbed to.
async function next() {
  puzzle.data = null;
  await load();
}

// The streak's words: how many solved, and the best streak on this browser (kept once this one is over).
function streakWords() {
  const streak = puzzle.streak, key = `streak-${puzzleVariant}`;
  const best = Math.max(Number(localStorage.getItem(key) || 0), streak.over ? streak.rung : 0);
  if (streak.over) localStorage.setItem(key, String(best));
  const solved = tr("Streak: {count} solved", { count: formatNumber(streak.rung) });
  return streak.over ? tr("{streak}. It is over; your best: {best}.", { streak: solved, best: formatNumber(best) })
    : solved;
}

// The reader's puzzle rating, once the server said how this puzzle changed it: "Your puzzle rating: 1500 → 1488".
function ratingWords() {
  const rating = puzzle.rating;
  if (!rating) return "";
  if (rating.unrated) return rating.unrated;
  const change = rating.after - rating.before;
  const plain = { useGrouping: false };  // a rating as ratings are written everywhere: 1500, not 1,500
  return tr("Your puzzle rating: {before} → {after} ({change}).", { before: formatNumber(rating.before, plain),
    after: formatNumber(rating.after, plain), change: formatNumber(change, { signDisplay: "exceptZero", ...plain }) });
}

function shown() {
  const last = puzzle.entries.length - 1;
  return puzzle.view < 0 ? last : Math.min(puzzle.view, last);
}

function flipped() {
  if (puzzle.flipped !== null) return puzzle.flipped;
  return puzzle.data.solver === "Black";
}

function render() {
  const data = puzzle.data;
  if (!data) return;
  const colours = data.themes[look.theme] || data.themes.wood;
  const index = shown(), entry = puzzle.entries[index];
  const animate = puzzle.drawn === index - 1 && entry.move && entry.move.text !== input.dropped();
  if (animate) moveSound(look, entry.move.captured.length > 0);
  puzzle.drawn = index;
  const svgEl = drawBoard($("board"), { layout: data.board, colours, entry, flipped: flipped(), numbers: look.numbers,
                                        animate, selected: puzzle.clicks, targets: input.targets(), lit: input.lit() });
  input.attach(svgEl);
  look.numbered(data.board);
  $("typed").hidden = Boolean(puzzle.over);

  const name = puzzle.streak ? tr("puzzle streak") : data.daily ? tr("today's puzzle") : tr("puzzle {id}", { id: data.id });
  document.title = tr("Draughts bot: {puzzle}", { puzzle: name });
  $("title").textContent = `${data.board.title} · ${name}`;
  $("task").textContent = tr("{colour} to play and win", { colour: colourName(data.solver) });
  const [motif, meaning] = PUZZLE_THEMES[data.theme] ? PUZZLE_THEMES[data.theme]() : [data.theme, ""];
  $("motif").textContent = tr("Theme: {theme}", { theme: motif });
  $("motif").title = meaning;
  let sentences = puzzle.said;
  if (puzzle.view >= 0 && !puzzle.over) {  // the move numbered as the list numbers it
    sentences = [[tr("Looking back at move {move}; ▶▶ goes to the position to play."),
                  { move: formatNumber(Math.ceil(index / 2)) }]];
  }
  writeWithMoves($("status"), sentences);
  $("status").className = puzzle.verdict;
  $("solution").disabled = Boolean(puzzle.over) || puzzle.waiting;
  $("another").href = `/puzzle/${data.variant}/random` + (theme ? `?theme=${encodeURIComponent(theme)}` : "");
  $("another").hidden = Boolean(puzzle.streak);
  $("new-streak").hidden = !(puzzle.streak && puzzle.streak.over);
  $("streak").textContent = puzzle.streak ? streakWords() : "";
  $("rating").textContent = ratingWords();
  $("permalink").hidden = !data.daily;
  $("permalink").href = data.path;
  showMoves(index);
}

// The moves so far (once over: the whole line), a line for each of the solver's moves and the reply to it; a
// click on one shows the position after it.
function showMoves(index) {
  showMoveList($("moves"), puzzle.entries, index, goTo);
}

// A move typed as in chat: played as if clicked, when it is one of the solver's moves now.
function typed(event) {
  event.preventDefault();
  const text = $("move-text").value;
  if (!text.trim() || !puzzle.data || puzzle.over) return;
  const moves = puzzle.view < 0 && !puzzle.waiting ? puzzle.legal : [];
  const [move, problem] = typedMove(text, moves);
  $("notice").textContent = problem;
  if (!move) return;
  $("move-text").value = "";
  puzzle.clicks = [];
  play(move);
}

function goTo(i) {
  if (!puzzle.data) return;
  const last = puzzle.entries.length - 1;
  puzzle.view = i >= last ? -1 : Math.max(0, i);
  puzzle.clicks = [];
  render();
}

function setUp() {
  replayControls(goTo, shown, () => Boolean(puzzle.data));
  $("flip").addEventListener("click", () => { if (puzzle.data) { puzzle.flipped = !flipped(); render(); } });
  $("solution").addEventListener("click", showSolution);
  $("new-streak").addEventListener("click", () => location.reload());
  look = boardLook(render);
  $("typed").addEventListener("submit", typed);
  load();
}

setUp();
