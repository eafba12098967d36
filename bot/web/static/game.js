// A game's page: follows the game live over a WebSocket, steps through it, and moves for a seated player.
"use strict";

const gameRef = location.pathname.split("/").pop();  // the game's id and watching key
const seatSecret = new URLSearchParams(location.hash.slice(1)).get("seat");
const page = {
  game: null,       // {board, themes, entries, status} from the server
  view: -1,         // the entry shown; -1 follows the game
  flipped: null,    // null: chosen by the seat
  drawn: null,      // the entry the board showed last: the next one slides its move in
  seat: null,       // {colour, name, starter} once the server accepts the seat link
  clicks: [],       // cells of the move being chosen
  socket: null,
  gone: false,      // the server does not have this game
  unsent: false,    // something was clicked while the page was not connected, and so not sent
  connected: false, // the socket is open
  judgements: {},   // ply -> the mark written after that move in the list ("?!", "?", "??"), once judged
  confirming: null, // the command ("resign", "stop") whose button was clicked, asked again before it is sent
  asked: false,     // the game was asked for whole (a gap in its updates' versions), and has not come yet
  clocksAt: 0,      // when the server's clocks came (performance.now()): the side to move's counts down from it
};
let look = null;    // the board's look, as the reader set it (board.js's boardLook)
const PHONE = matchMedia("(max-width: 799.98px)");  // (style.css's narrow layout: the players above and below the board)
const LOW_TIME = 10;  // seconds: a clock with less is shown in red, as lidraughts does
const $ = (id) => document.getElementById(id);

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws/${gameRef}`);
  page.socket = socket;
  socket.onopen = () => {
    setConnected(true);
    if (seatSecret) socket.send(JSON.stringify({ type: "seat", secret: seatSecret }));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => { setConnected(false); setTimeout(reconnect, 2000); };
}

async function reconnect() {
  // the server may have restarted without the game: then say so rather than trying for ever
  try {
    const response = await fetch(`/g/${gameRef}`, { method: "HEAD" });
    if (response.status === 404) {
      page.gone = true;
      showConnection();
      $("notice").textContent = tr("The server does not have this game (any more).");
      return;
    }
  } catch (error) { /* the server is down: keep trying */ }
  connect();
}

function setConnected(on) {
  page.connected = on;
  showConnection();
}

// The header's word on the game: "live" only for a game still on with the page connected to it; a finished
// game says so with its result, connected or not (nothing more will happen in it).
function showConnection() {
  const el = $("connection");
  if (page.gone) {
    el.textContent = "";
    el.className = "";
  } else if (page.game && page.game.status.result) {
    el.textContent = tr("Finished: {result}", { result: page.game.status.headline });
    el.className = "over";
  } else if (!page.connected) {
    el.textContent = page.game ? tr("reconnecting…") : tr("connecting…");
    el.className = "off";
  } else if (page.game) {
    el.textContent = tr("live");
    el.className = "on";
  } else {
    el.textContent = tr("connecting…");  // connected, the game not yet received
    el.className = "off";
  }
}

function receive(message) {
  if (message.type === "game") {  // the whole game, on each connection: older notices no longer hold
    page.game = message;
    page.asked = false;
    page.clicks = [];
    input.clear();
    $("notice").textContent = page.unsent ? tr("Connected again. What you clicked while the page was not connected "
      + "was not sent: do it again if you still want to.") : "";
    page.unsent = false;
  } else if ((message.type === "update" || message.type === "moved") && page.game) {
    if (!message.whole && message.v != null && page.game.v != null && message.v !== page.game.v + 1) {
      // a gap in the game's versions (or an update already seen): ask for the game whole
      if (message.v > page.game.v && !page.asked) {
        page.asked = true;  // (asked again after a while if the game does not come: the server may not have answered)
        setTimeout(() => { page.asked = false; }, 3000);
        page.socket.send(JSON.stringify({ type: "state" }));
      }
      return;
    }
    page.game.v = message.v;
    if (message.type === "moved") played(message);
    else {
      page.game.entries = page.game.entries.slice(0, message.from).concat(message.entries);
      page.game.status = message.status;
    }
    page.clicks = [];
    input.clear();
    if (page.view >= page.game.entries.length) page.view = -1;
    $("notice").textContent = "";
  }
  if (message.type === "game" || message.type === "update" || message.type === "moved") {
    page.clocksAt = performance.now();  // the server's clocks are the page's again (views.clocks)
  }
  if (message.type === "seat") {
    page.seat = message;
    if (analysis.state) drawAnalysis();  // (its practice is for a player's own seat)
    if (page.game && message.legal) page.game.status.legal = message.legal;  // (a page that only watched had none)
  } else if (message.type === "notice") {
    $("notice").textContent = message.text;
  }
  followAnalysis();
  render();
}

// One move, sent alone to a page that has seen the game just before it (views.moved): the page makes the position
// after it and the rest of the status itself. Its legal moves come only to the page seated as the side to move.
function played(message) {
  const game = page.game, status = game.status, before = game.entries[game.entries.length - 1];
  const standing = new Map(before.pieces.map(([r, c, kind]) => [`${r},${c}`, kind]));
  const captured = (message.move.captured || []).map(([r, c]) => [r, c, standing.get(`${r},${c}`)]);
  const move = { text: message.move.text, path: message.move.path, captured };
  const [from, to] = [move.path[0], move.path[move.path.length - 1]];
  const gone = new Set(captured.map(([r, c]) => `${r},${c}`));
  let piece = message.piece;
  const pieces = [];
  for (const [r, c, kind] of before.pieces) {
    if (r === from[0] && c === from[1]) piece = piece || kind;
    else if (!gone.has(`${r},${c}`)) pieces.push([r, c, kind]);
  }
  pieces.push([to[0], to[1], piece]);
  const turn = before.turn === "White" ? "Black" : "White";
  game.entries.push({ pieces, move, turn });
  Object.assign(status, { ply: game.entries.length - 1, turn, to_move: status.players[turn],
                          legal: message.legal || [], offer: null, said: message.said });
  if ("evaluation" in message) status.evaluation = message.evaluation;
  if ("clocks" in message) status.clocks = message.clocks;
}

function shown() {
  const last = page.game.entries.length - 1;
  return page.view < 0 ? last : Math.min(page.view, last);
}

function myTurn() {
  const status = page.game.status;
  return page.seat !== null && page.view < 0 && !status.result && status.turn === page.seat.colour
    && status.legal.length > 0;
}

function flipped() {
  if (page.flipped !== null) return page.flipped;
  return page.seat !== null && page.seat.colour === "Black";
}

// The move input (board.js): a seated player's clicks on their turn, in ``page.clicks``.
const input = moveInput(page, {
  legal: () => practising() ? practiceLegal() : page.game && myTurn() ? page.game.status.legal : [],
  play: (move) => practising() ? practiseMove(move) : play(move),
  say: (text) => { $("notice").textContent = text; },
  redraw: () => render(),
});

function render() {
  if (!page.game) return;
  const { board, themes, status } = page.game;
  const colours = themes[look.theme] || themes.wood;
  if (practising()) page.view = practiceSpot().ply;  // (the position before the move to do better)
  const index = shown(), entry = page.game.entries[index];
  // a move slides in when it is the next one: played, or stepped to; not one the reader dropped there by a drag
  const animate = page.drawn === index - 1 && entry.move && entry.move.text !== input.dropped();
  page.drawn = index;
  if (animate) moveSound(look, entry.move.captured.length > 0);
  const svgEl = drawBoard($("board"), { layout: board, colours, entry, flipped: flipped(), numbers: look.numbers,
                                        animate, selected: page.clicks, targets: input.targets(), lit: input.lit(),
                                        arrow: practising() ? (practice.result && practice.result.best_path)
                                          : analysisArrow(index) });
  input.attach(svgEl);
  look.numbered(board);

  document.title = tr("Draughts bot: game {game}", { game: page.game.id });
  $("title").textContent = board.title + " · " + tr("game {game}", { game: page.game.id });
  showConnection();
  showPlayers();
  let words;
  if (page.view >= 0) {  // moves counted as the list numbers them: a move of each side is one
    words = tr("Looking at move {move} of {moves}; ▶▶ goes to the end.",
               { move: formatNumber(Math.ceil(index / 2)),
                 moves: formatNumber(Math.ceil((page.game.entries.length - 1) / 2)) });  // (the result
    // is in the header, and at the end)
  } else if (status.result) words = status.headline;  // the page's result line, not the chat's whole message
  else if (myTurn()) {
    words = tr("Your move ({colour}): click or drag a piece, or type the move.", { colour: colourName(status.turn) });
  }
  else {  // (the player after a colon: a name with brackets of its own is not followed by more)
    words = tr("{colour} to move: {player}.", { colour: colourName(status.turn), player: status.to_move });
  }
  if (status.evaluation && !status.result && page.view < 0) {  // (of the latest position, not one looked back at)
    words += " " + evaluationWords(status.evaluation);
  }
  if (practising()) words = practiceWords();
  $("status").textContent = words;
  showTyping();
  $("said").textContent = status.said && status.said !== status.result ? status.said : "";  // the result once
  showControls();

  const list = $("moves");
  list.replaceChildren();
  let item = null;
  page.game.entries.forEach((entry, i) => {
    if (!entry.move) return;
    if (i % 2 === 1) {  // a numbered line per pair of moves, as records write them: "12. 26x17 11-15"
      item = document.createElement("li");
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${(i + 1) / 2}.`;
      item.appendChild(number);
      list.appendChild(item);
    }
    const button = document.createElement("button");
    button.className = i === index ? "move current" : "move";
    button.dataset.ply = i;
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = entry.move.text;
    const mark = document.createElement("span");  // the judgement of the move, once it has one
    mark.className = "judgement";
    const judgement = page.judgements[i];
    if (judgement) {
      mark.textContent = judgement;
      mark.dataset.mark = judgement;
      const colour = judgementColour(judgement);  // as the graph marks it
      if (colour) mark.style.color = colour;      // (CSSOM: the Content-Security-Policy allows it)
    }
    button.append(text, mark);
    button.addEventListener("click", () => goTo(i));
    item.append(" ", button);  // a space between, so that copied moves do not run together
    const comment = practising() ? null : analysisComment(i - 1);  // the analysis's word on it, under it, as
    // lidraughts writes it (not while practising: it names the better move)
    if (comment) {
      const said = document.createElement("span");
      said.className = "comment";
      said.dataset.ply = i;
      said.textContent = comment;
      const colour = judgementColour(judgement);
      if (colour) said.style.borderLeftColor = colour;
      item.append(said);
    }
  });
  if (page.view < 0) list.scrollTop = list.scrollHeight;  // following the game: its latest moves in sight
  else keepInView(list);  // looking back: the move shown in sight
  $("pdn").href = `/g/${gameRef}.pdn`;
  $("gif").href = `/g/${gameRef}.gif`;
  $("board-link").href = `/analysis/g/${gameRef}?ply=${index}`;
  showAnalysisAt(index);
}

// The bot's last evaluation, for White as lidraughts gives every evaluation (views.evaluation): a score in men, or
// the side a forced result favours.
function evaluationWords(evaluation) {
  if (evaluation.winner) {
    const colour = colourName(evaluation.winner);
    return evaluation.forced ? tr("Bot's evaluation: a forced win for {colour}.", { colour })
      : tr("Bot's evaluation: a won ending for {colour}.", { colour });
  }
  return tr("Bot's evaluation: {score} for White.", { score: formatScore(evaluation.score) });
}

// A row of class ``className`` for one side: its piece's mark and its player's name (the players, and each side's
// figures in the analysis); the caller appends the rest.
function sideRow(className, colour) {
  const row = document.createElement("div");
  row.className = className;
  row.dataset.colour = colour;
  const piece = document.createElement("span");
  piece.className = `piece-mark ${colour.toLowerCase()}`;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = page.game.status.players[colour] || colourName(colour);
  row.append(piece, name);
  return row;
}

// The players, the one at the top of the board first: each one's colour, name, and whether it is to move or, once
// the game is over, whether it won.
function showPlayers() {
  const status = page.game.status;
  const rows = [];
  for (const colour of topFirst()) {
    const row = sideRow("player", colour);
    const side = document.createElement("span");
    side.className = "side";
    side.textContent = colourName(colour);
    const outcome = status.result ? outcomeOf(status, colour) : "";
    if (outcome) {
      side.textContent += ` · ${OUTCOMES[outcome]()}`;
      row.classList.add(outcome === "won" ? "winner" : "ended");
    } else if (!status.result && status.turn === colour) {
      side.textContent += " · " + tr("to move");
      row.classList.add("to-move");
    }
    row.append(side);
    if (status.clocks) {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.colour = colour;
      row.append(clock);
    }
    rows.push(row);
  }
  if (status.seconds) {
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = tr("The bot takes {seconds} s a move.",
                          { seconds: formatNumber(status.seconds, { maximumFractionDigits: 2 }) });
    rows.push(note);
  }
  // on a phone the player at the top of the board is above it and the other below it, as on lidraughts
  const [top, bottom, ...notes] = rows;
  $("top-player").replaceChildren(...(PHONE.matches ? [top] : []));
  $("bottom-player").replaceChildren(...(PHONE.matches ? [bottom] : []));
  $("players").replaceChildren(...(PHONE.matches ? notes : rows));
  showClocks();
}

// A timed game's clocks: the server's, the side to move's counted down since they came (never below nought, and
// not once the game is over); red under LOW_TIME seconds.
function showClocks() {
  const status = page.game && page.game.status;
  if (!status || !status.clocks) return;
  const running = status.result ? null : status.turn;
  for (const el of document.querySelectorAll(".player .clock")) {
    const colour = el.dataset.colour;
    const passed = colour === running ? (performance.now() - page.clocksAt) / 1000 : 0;
    const left = Math.max(0, status.clocks[colour] - passed);
    el.textContent = formatClock(left);
    el.classList.toggle("running", colour === running);
    el.classList.toggle("low", left < LOW_TIME);
  }
}

// Seconds as players read a clock (bot.clocks.clock_words): 0:07.3 under ten seconds, 4:59, 1:02:03, 2 d 03:00.
function formatClock(seconds) {
  if (seconds < 10) return `0:${seconds.toFixed(1).padStart(4, "0")}`;
  const whole = Math.floor(seconds), two = (n) => String(n).padStart(2, "0");
  const days = Math.floor(whole / 86400), hours = Math.floor(whole % 86400 / 3600);
  const minutes = Math.floor(whole % 3600 / 60), secs = whole % 60;
  if (days) return `${days} d ${two(hours)}:${two(minutes)}`;
  return hours ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

// "won", "lost" or "draw" for a colour, as the server tells the result; "" for a game aborted or stopped.
function outcomeOf(status, colour) {
  if (status.drawn) return "draw";
  if (!status.winner) return "";
  return status.winner === colour ? "won" : "lost";
}
const OUTCOMES = { won: () => tr("won"), lost: () => tr("lost"), draw: () => tr("draw") };

// The colours in the order the board shows them, top first: the side whose men start nearer the top row is
// at the top unless the board is turned round.
function topFirst() {
  const rows = { White: [], Black: [] };  // the rows of each side's pieces (kinds w and W are White's)
  for (const [r, , kind] of page.game.entries[0].pieces) rows[kind.toLowerCase() === "w" ? "White" : "Black"].push(r);
  const mean = (xs) => xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
  const order = mean(rows.White) <= mean(rows.Black) ? ["White", "Black"] : ["Black", "White"];
  return flipped() ? order.reverse() : order;
}

// The seat's controls that can be used now: none on a watcher's page or once the game is over; Stop only for
// a bot match's starter; Accept and Decline only while the opponent's offer waits; Take back only with a move
// of one's own to take back (and, against the bot, on one's turn and with a takeback left).
function controls() {
  const seat = page.seat, status = page.game.status;
  const usable = new Set();
  if (!seat || status.result) return usable;
  if (seat.starter) {
    if (status.kind === "match") usable.add("stop");
    return usable;
  }
  const offer = status.offer;
  usable.add("resign");
  if (!offer || offer.kind !== "draw") usable.add("draw");
  if (offer && offer.by !== seat.colour) {
    usable.add("accept");
    usable.add("decline");
  }
  const entries = page.game.entries;
  const moved = entries.slice(0, -1).some((entry) => entry.turn === seat.colour);
  const againstBot = status.kind === "bot";
  if (moved && !offer && (!againstBot || (status.turn === seat.colour && status.takebacks !== 0))) {
    usable.add("takeback");
  }
  return usable;
}

// The seat's controls that can be used now; or, after a click on one that ends the game for good (Resign, Stop the
// match), the question again with its two answers, as lidraughts asks.
function showControls() {
  const usable = controls();
  if (page.confirming && !usable.has(page.confirming)) page.confirming = null;  // (the game ended meanwhile)
  const confirming = page.confirming;
  for (const button of document.querySelectorAll("#seat-controls button[data-command]")) {
    button.hidden = confirming !== null || !usable.has(button.dataset.command);
  }
  for (const id of ["confirm-question", "confirm-yes", "confirm-no"]) $(id).hidden = confirming === null;
  if (confirming) {
    const [question, yes] = CONFIRMATIONS[confirming]();
    $("confirm-question").textContent = question;
    $("confirm-yes").textContent = yes;
  }
  $("seat-controls").hidden = usable.size === 0;
  // Once the game is over: New game for everyone, and Rematch for the person who played the bot, from their seat
  const over = Boolean(page.game.status.result);
  $("after-game").hidden = !over;
  $("rematch").hidden = !(over && page.seat && page.seat.rematch);  // (the page's own games against the bot)
}

// The game again, colours swapped, started on this page: the server answers with the new game's seat link.
async function rematch() {
  $("rematch").disabled = true;
  try {
    const response = await fetch(`/api/rematch/${gameRef}`, { method: "POST", headers: { "Content-Type":
      "application/json" }, body: JSON.stringify({ seat: seatSecret }) });
    const text = await response.text();
    let data;
    try { data = JSON.parse(text); } catch (error) { data = { error: text }; }  // a plain answer, as a 503 is
    if (data.url) { location.href = data.url; return; }
    $("notice").textContent = data.error || tr("The game did not start.");
  } catch (error) {
    $("notice").textContent = tr("Not connected, so that was not sent. Reconnecting…");
  }
  $("rematch").disabled = false;
}
const CONFIRMATIONS = {  // each command asked again: the question, and the button that confirms it
  resign: () => [tr("Resign this game?"), tr("Yes, resign")],
  stop: () => [tr("Stop this match?"), tr("Yes, stop it")],
};

function confirmed(yes) {
  const command = page.confirming;
  page.confirming = null;
  if (yes && command) send({ type: "command", name: command });
  render();
}

// The box for a typed move, as in chat ("11-15", "11x18x25"): shown to a seated player while the game is on, its
// example one of their moves when it is their turn. The server reads the move as the chat does.
function showTyping() {
  const status = page.game.status;
  const on = Boolean(page.seat && !page.seat.starter && !status.result);
  $("typing").hidden = !on;
  const example = myTurn() && status.legal.length ? status.legal[0].text : "";
  $("move-text").placeholder = example ? tr("Type a move, as {move}", { move: example }) : tr("Type a move");
}

function typed(event) {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (!text) return;
  if (!myTurn()) {
    $("notice").textContent = page.view >= 0 ? tr("Go to the latest position (▶▶) to move.") : tr("It is not your turn.");
    return;
  }
  $("move-text").value = "";
  send({ type: "move", text, ply: page.game.entries.length - 1 });
}

function play(move) {
  send({ type: "move", text: move.text, ply: page.game.entries.length - 1 });
  render();
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
    return;
  }
  page.unsent = true;  // nothing is kept to send later: by then the game may have moved on
  $("notice").textContent = message.type === "move" ? tr("Not connected, so that move was not sent. Reconnecting…")
    : tr("Not connected, so that was not sent. Reconnecting…");
}

function goTo(i) {
  const last = page.game.entries.length - 1;
  page.view = i >= last ? -1 : Math.max(0, i);
  page.clicks = [];
  render();
}

function setUp() {
  $("flip").addEventListener("click", () => { page.flipped = !flipped(); render(); });
  look = boardLook(render);
  PHONE.addEventListener("change", render);
  $("typed").addEventListener("submit", typed);
  replayControls(goTo, shown, () => Boolean(page.game), (key) => {  // Escape answers "no" to a question asked
    if (key !== "Escape" || !page.confirming) return false;
    confirmed(false);
    return true;
  });
  for (const button of document.querySelectorAll("#seat-controls button[data-command]")) {
    button.addEventListener("click", () => {
      const command = button.dataset.command;
      if (command in CONFIRMATIONS) {
        page.confirming = command;
        render();
        $("confirm-no").focus();  // Enter or a second click in the same place does not confirm by itself
      } else send({ type: "command", name: command });
    });
  }
  $("confirm-yes").addEventListener("click", () => confirmed(true));
  $("rematch").addEventListener("click", rematch);
  $("confirm-no").addEventListener("click", () => confirmed(false));
  setInterval(showClocks, 100);
  connect();
}

setUp();
