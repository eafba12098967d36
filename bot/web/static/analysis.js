// A finished game's analysis on its page (game.js calls in): the Analyse button, a bar while the engine works, then
// the evaluation graph (click a point to go to that position), each side's figures, the judgement marks in the
// move list and, where the replay shows the position before a judged move, the better move as an arrow on the
// board with its line written out. Everything comes from /api/analysis/REF (bot.web.views.analysis); nothing is
// built from markup.
"use strict";

const analysis = {
  state: null,     // the server's answer: {status, done, total, analysis, players, colours}
  loading: false,  // a request is under way
  timer: null,     // the next poll while the analysis runs
  error: "",       // why the last request failed (a refusal, the database), shown in the panel
  before: {},      // the position before each judged move -> that move (for the arrow and the better line)
  shownAt: null,   // the position the graph and the better line were last drawn for
};
const GRAPH_WIDTH = 640, GRAPH_HEIGHT = 110, GRAPH_MARGIN = 6;  // the graph's SVG units (about its pixels, the
// board's width under it); a dot at +-1 stays whole
const POLL_MS = 1000;

// Called on every message from the game's socket: a finished game's analysis is read once (shown at once if it
// was made before); a game still on shows none.
function followAnalysis() {
  const finished = Boolean(page.game && page.game.status.result);
  $("analysis").hidden = !finished;
  if (finished && analysis.state === null && !analysis.loading && analysis.timer === null) loadAnalysis();
}

async function loadAnalysis() {
  analysis.timer = null;
  await request(() => fetch(`/api/analysis/${gameRef}`, { cache: "no-store" }));
}

async function askAnalysis() {
  if (analysis.loading) return;
  const button = $("analyse");
  if (button) button.disabled = true;  // until the answer redraws the panel
  const body = JSON.stringify(seatSecret ? { seat: seatSecret } : {});
  await request(() => fetch(`/api/analysis/${gameRef}`, { method: "POST", body,
                                                         headers: { "Content-Type": "application/json" } }));
}

async function request(send) {
  analysis.loading = true;
  const wasRunning = analysis.state && analysis.state.status === "running";
  let retry = false;
  try {
    const response = await send();
    const data = await response.json().catch(() => ({ error: tr("The server answered {status}.", { status: response.status }) }));
    if (response.ok) {
      analysis.error = wasRunning && data.status === "none"
        ? tr("The analysis did not finish (the bot says why in its log). You can ask again.") : "";
      setAnalysis(data);
    } else {
      analysis.error = data.error || tr("The server answered {status}.", { status: response.status });
      retry = response.status === 503 && analysis.state === null;  // the database: read it again later
    }
  } catch (error) {
    analysis.error = tr("The server cannot be reached; trying again.");
    retry = true;
  } finally {
    analysis.loading = false;
  }
  if (analysis.state && analysis.state.status === "running" || retry) {
    clearTimeout(analysis.timer);
    analysis.timer = setTimeout(loadAnalysis, retry ? 5 * POLL_MS : POLL_MS);
  }
  drawAnalysis();
  render();
}

function setAnalysis(data) {
  analysis.state = data;
  analysis.before = {};
  if (data.status !== "done") return;
  for (const move of data.analysis.moves) {
    if (!move.judgement) continue;
    page.judgements[move.ply] = move.mark;
    analysis.before[move.ply - 1] = move;
  }
}

// The colour the graph gives a judgement's mark ("?!", "?", "??"), or null before the analysis is here.
function judgementColour(mark) {
  const state = analysis.state;
  if (!state || !state.colours) return null;
  const name = Object.keys(MARK_NAMES).find((n) => MARK_NAMES[n] === mark);
  return name ? state.colours[name] : null;
}
const MARK_NAMES = { inaccuracy: "?!", mistake: "?", blunder: "??" };

// The better move's cells at the position shown, for the board's arrow; null where no judged move follows.
function analysisArrow(index) {
  const move = analysis.before[index];
  return move && move.path ? move.path : null;
}

// #analysis rebuilt for the state: the button, the bar, or the figures and the graph.
function drawAnalysis() {
  const box = $("analysis");
  const parts = [];
  const state = analysis.state;
  if (state && state.status === "running") {
    const words = document.createElement("p");
    words.id = "analysis-words";
    words.textContent = tr("The engine is judging every move: {done} of {total} positions.",
                           { done: formatNumber(state.done), total: formatNumber(state.total) });
    const bar = document.createElement("progress");
    bar.id = "analysis-progress";
    bar.max = Math.max(1, state.total);
    bar.value = state.done;
    bar.textContent = `${Math.floor(100 * state.done / Math.max(1, state.total))}%`;
    parts.push(words, bar);
  } else if (state && state.status === "done") {
    parts.push(figures(state));
    if (page.seat && !page.seat.starter) parts.push(practiceControls());  // (a player's own seat only)
    const better = document.createElement("p");
    better.id = "better-line";
    better.setAttribute("aria-live", "polite");
    parts.push(better);
  } else if (state) {
    const lead = document.createElement("p");
    lead.className = "lead";
    lead.textContent = tr("The engine can judge every move of this game: its mistakes, the better moves, and a graph.");
    const button = document.createElement("button");
    button.id = "analyse";
    button.className = "primary";
    button.textContent = tr("Analyse");
    button.addEventListener("click", askAnalysis);
    parts.push(lead, button);
  }
  if (analysis.error) {
    const error = document.createElement("p");
    error.id = "analysis-error";
    error.setAttribute("role", "alert");
    error.textContent = analysis.error;
    parts.push(error);
  }
  box.replaceChildren(...parts);
  // the graph full width under the board, as lidraughts draws it
  $("graph-slot").replaceChildren(...(state && state.status === "done" ? [graph(state)] : []));
  analysis.shownAt = null;
}

// The analysis's word on move ``ply`` (0 the first), for the move list: "Mistake. Best move was 22-18." (null for a
// move that was not judged, or before the analysis).
function analysisComment(ply) {
  const state = analysis.state;
  const move = state && state.status === "done" ? state.analysis.moves[ply] : null;
  if (!move || !move.judgement || !move.line.length) return null;
  return JUDGEMENTS[move.judgement].comment({ move: move.line[0] });
}

// Each side's line: its name, its counts of inaccuracies, mistakes and blunders (by their marks, the words in
// their titles), its accuracy.
function figures(state) {
  const list = document.createElement("div");
  list.id = "analysis-players";
  for (const colour of ["White", "Black"]) {
    const p = state.players[colour];
    if (!p) continue;
    const row = sideRow("figures", colour);
    const counts = document.createElement("span");
    counts.className = "counts";
    for (const [kind, count] of [["inaccuracy", p.inaccuracies], ["mistake", p.mistakes], ["blunder", p.blunders]]) {
      const item = document.createElement("span");
      item.className = "count";
      item.dataset.judgement = kind;
      item.title = COUNT_WORDS[kind](count);
      item.setAttribute("aria-label", item.title);
      const mark = document.createElement("b");
      mark.textContent = MARK_NAMES[kind];
      mark.style.color = state.colours[kind];  // CSSOM, which the page's Content-Security-Policy allows
      item.append(mark, ` ${count}`);
      counts.append(item);
    }
    const accuracy = document.createElement("span");
    accuracy.className = "accuracy";
    accuracy.textContent = formatNumber(Math.round(p.accuracy) / 100, { style: "percent" });
    const loss = formatNumber(p.average_loss / 100, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    accuracy.title = tr("accuracy; average loss {loss} of a man a move", { loss });
    accuracy.setAttribute("aria-label", tr("accuracy: {percent}%", { percent: Math.round(p.accuracy) }));
    row.append(counts, accuracy);
    list.append(row);
  }
  return list;
}

// The evaluation graph: x the position (the start at the left), y White's winning chances (+1 at the top), White's
// area light and Black's dark about the midline, a dot in its judgement's colour after each judged move, a line at
// the position shown. A click goes to the nearest position.
function graph(state) {
  const chances = state.analysis.chances;
  const n = chances.length;
  const mid = GRAPH_HEIGHT / 2, half = mid - GRAPH_MARGIN;
  const x = (i) => n > 1 ? GRAPH_MARGIN + i * (GRAPH_WIDTH - 2 * GRAPH_MARGIN) / (n - 1) : GRAPH_WIDTH / 2;
  const y = (c) => mid - half * Math.max(-1, Math.min(1, c));
  const root = svg("svg", { id: "analysis-graph", viewBox: `0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`, role: "img",
                            "aria-label": tr("evaluation graph: White's winning chances move by move; click to "
                                             + "go there") });
  const defs = svg("defs", {}, root);
  const clip = (id, top, height) => svg("rect", { x: 0, y: top, width: GRAPH_WIDTH, height },
                                       svg("clipPath", { id }, defs));
  clip("graph-above", 0, mid);
  clip("graph-below", mid, GRAPH_HEIGHT - mid);
  svg("rect", { class: "plot", x: 0, y: 0, width: GRAPH_WIDTH, height: GRAPH_HEIGHT }, root);
  const curve = chances.map((c, i) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`);
  const area = [`${x(0).toFixed(1)},${mid}`, ...curve, `${x(n - 1).toFixed(1)},${mid}`].join(" ");
  svg("polygon", { class: "white-area", points: area, "clip-path": "url(#graph-above)" }, root);
  svg("polygon", { class: "black-area", points: area, "clip-path": "url(#graph-below)" }, root);
  svg("line", { class: "midline", x1: 0, x2: GRAPH_WIDTH, y1: mid, y2: mid }, root);
  svg("polyline", { class: "curve", points: curve.join(" "), fill: "none" }, root);
  svg("line", { id: "graph-cursor", class: "cursor", x1: 0, x2: 0, y1: 0, y2: GRAPH_HEIGHT }, root);
  for (const move of state.analysis.moves) {
    if (!move.judgement) continue;
    const dot = svg("circle", { class: "point", cx: x(move.ply), cy: y(chances[move.ply]), r: 4,
                                fill: state.colours[move.judgement], "data-ply": move.ply }, root);
    const title = svg("title", {}, dot);
    title.textContent = `${moveName(move)}${move.mark} ${JUDGEMENTS[move.judgement].name()}`;
  }
  root.addEventListener("click", (event) => {
    const box = root.getBoundingClientRect();
    const at = (event.clientX - box.left) / box.width * GRAPH_WIDTH;
    const i = n > 1 ? Math.round((at - GRAPH_MARGIN) / (GRAPH_WIDTH - 2 * GRAPH_MARGIN) * (n - 1)) : 0;
    goTo(Math.max(0, Math.min(n - 1, i)));
  });
  root.graphX = x;
  return root;
}

// "12. 24-19" or "12... 24-19", numbered as the move list numbers the moves.
function moveName(move) {
  const number = Math.floor((move.ply + 1) / 2);
  return `${number}${move.ply % 2 === 1 ? "." : "…"} ${move.played}`;
}

// On each render: the graph's line at the position shown, and the better line where a judged move follows it
// (or what the move just played was judged).
function showAnalysisAt(index) {
  if (practising()) {  // the better move is what the practice asks for: not shown until the move was judged
    if ($("better-line")) $("better-line").replaceChildren();
    analysis.shownAt = null;
    return;
  }
  const state = analysis.state;
  if (!state || state.status !== "done" || analysis.shownAt === index) return;
  analysis.shownAt = index;
  const graphEl = $("analysis-graph");
  if (graphEl) {
    const cursor = $("graph-cursor");
    const cx = graphEl.graphX(index);
    cursor.setAttribute("x1", cx);
    cursor.setAttribute("x2", cx);
  }
  const better = $("better-line");
  if (!better) return;
  const next = analysis.before[index];
  const played = state.analysis.moves[index - 1];
  better.replaceChildren();
  if (next) {
    const what = document.createElement("span");
    what.className = "judged";
    what.textContent = JUDGEMENTS[next.judgement].is({  // the scores for White, as every evaluation on the page
      move: moveName(next) + next.mark, before: scoreWords(next.before), after: scoreWords(next.after),
      colour: colourName("White") }) + " ";
    const line = document.createElement("strong");
    line.append(tr("Better:"));
    for (const move of next.line) {  // each move kept whole on a line ("16-20" is not cut at its hyphen)
      const text = document.createElement("span");
      text.className = "line-move";
      text.textContent = move;
      line.append(" ", text);
    }
    better.append(what, line);
  } else if (played && played.judgement) {
    better.textContent = JUDGEMENTS[played.judgement].was({ move: moveName(played) + played.mark });
  }
}

// An analysis's score for White as the page writes it: a number of men, or the words of a forced result.
function scoreWords(score) {
  return typeof score === "number" ? formatScore(score) : score;
}

// Each judgement's words (whole sentences, as each language builds them).
const JUDGEMENTS = {
  inaccuracy: {
    name: () => tr("inaccuracy"),
    comment: (v) => tr("Inaccuracy. Best move was {move}.", v),
    is: (v) => tr("{move} is an inaccuracy ({before} → {after} for {colour}).", v),
    was: (v) => tr("{move} was an inaccuracy: ◀ shows the better move.", v),
  },
  mistake: {
    name: () => tr("mistake"),
    comment: (v) => tr("Mistake. Best move was {move}.", v),
    is: (v) => tr("{move} is a mistake ({before} → {after} for {colour}).", v),
    was: (v) => tr("{move} was a mistake: ◀ shows the better move.", v),
  },
  blunder: {
    name: () => tr("blunder"),
    comment: (v) => tr("Blunder. Best move was {move}.", v),
    is: (v) => tr("{move} is a blunder ({before} → {after} for {colour}).", v),
    was: (v) => tr("{move} was a blunder: ◀ shows the better move.", v),
  },
};
// Each side's count of a judgement, as the count's title says it.
const COUNT_WORDS = {
  inaccuracy: (count) => tr("inaccuracies: {count}", { count }),
  mistake: (count) => tr("mistakes: {count}", { count }),
  blunder: (count) => tr("blunders: {count}", { count }),
};

// Practice from one's own mistakes (a seated player's, once the analysis is done), as `practice` in chat: the
// positions where the analysis marked one of their moves a mistake or a blunder, one after another; the server
// judges each move tried (/api/practice/REF) and then shows the engine's move.
const practice = { spots: null, at: 0, result: null, waiting: false, error: "" };

function practising() { return practice.spots !== null && practice.spots.length > 0; }
function practiceSpot() { return practising() ? practice.spots[practice.at] : null; }

function practiceControls() {
  const box = document.createElement("div");
  box.className = "practice";
  if (!practising()) {
    const button = document.createElement("button");
    button.id = "practise";
    button.textContent = tr("Practise my mistakes");
    button.title = tr("the positions where you made a mistake or a blunder, to find the better move");
    button.addEventListener("click", startPractice);
    box.append(button);
  } else {
    const next = document.createElement("button");
    next.id = "practice-next";
    next.textContent = practice.at + 1 < practice.spots.length ? tr("Next position") : tr("Again from the first");
    next.disabled = practice.result === null;
    next.addEventListener("click", () => { practice.at = (practice.at + 1) % practice.spots.length;
                                           practice.result = null; drawAnalysis(); render(); });
    const stop = document.createElement("button");
    stop.id = "practice-stop";
    stop.textContent = tr("Stop practising");
    stop.addEventListener("click", () => {
      Object.assign(practice, { spots: null, result: null, error: "" });
      page.view = -1;
      page.clicks = [];
      input.clear();
      drawAnalysis();
      render();
    });
    box.append(next, stop);
  }
  if (practice.error) {
    const error = document.createElement("p");
    error.id = "practice-error";
    error.setAttribute("role", "alert");
    error.textContent = practice.error;
    box.append(error);
  }
  return box;
}

async function askPractice(body) {
  try {
    const response = await fetch(`/api/practice/${gameRef}`, { method: "POST", headers: { "Content-Type":
      "application/json" }, body: JSON.stringify(Object.assign({ seat: seatSecret }, body)) });
    const data = await response.json().catch(() => ({ error: tr("The server answered {status}.", { status: response.status }) }));
    practice.error = response.ok ? "" : data.error;
    return response.ok ? data : null;
  } catch (error) {
    practice.error = tr("The server is not answering, so nothing changed. Try again in a moment.");
    return null;
  }
}

async function startPractice() {
  const data = await askPractice({});
  if (data) {
    practice.spots = data.spots;
    practice.at = 0;
    practice.result = null;
    if (!data.spots.length) practice.error = tr("No mistake or blunder of yours in this game: nothing to practise.");
  }
  drawAnalysis();
  render();
}

// The moves that may be tried in the practice position (none once one was judged, or while it is).
function practiceLegal() {
  const spot = practiceSpot();
  return spot && practice.result === null && !practice.waiting ? spot.legal : [];
}

async function practiseMove(move) {
  const spot = practiceSpot();
  practice.waiting = true;
  render();
  const data = await askPractice({ ply: spot.ply, move: move.text });
  practice.waiting = false;
  if (practiceSpot() !== spot) return;  // (stopped, or started again, meanwhile: this answer is for no position now)
  if (data) practice.result = data;
  drawAnalysis();
  render();
}

// The status line while practising: the task, then the server's words on the move tried.
function practiceWords() {
  const spot = practiceSpot();
  if (practice.waiting) return tr("Judging your move…");
  if (practice.result) return practice.result.words;
  return tr("Practice ({at} of {count}): you played {move} here, {judgement}. Find the better move.",
            { at: formatNumber(practice.at + 1), count: formatNumber(practice.spots.length), move: spot.played,
              judgement: JUDGEMENTS[spot.judgement].name() });
}
