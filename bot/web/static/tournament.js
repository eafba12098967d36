// A tournament's page: its standings, its games on (each a link to its page) and finished, asked for again
// every few seconds while it is on.
"use strict";

const EVERY = 5000;  // milliseconds between two looks

function item(text, path) {
  const li = document.createElement("li");
  const link = document.createElement("a");
  link.href = path;
  link.textContent = text;
  li.append(link);
  return li;
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function board(g) {
  const players = tr("{white} (White) vs {black} (Black)", { white: g.white, black: g.black });
  const where = tr("Round {round}, board {board}", { round: formatNumber(g.round), board: formatNumber(g.board) });
  return g.result ? `${where}: ${players}, ${g.result}` : `${where}: ${players}`;
}

async function show() {
  const error = document.getElementById("error");
  let data;
  try {
    const response = await fetch(`/api${location.pathname}`);
    const text = await response.text();
    try { data = JSON.parse(text); } catch (e) { data = { error: text }; }
  } catch (e) {
    error.textContent = tr("The server is not answering. Reload the page to try again.");
    setTimeout(show, EVERY);
    return;
  }
  if (data.error) {
    error.textContent = data.error;
    return;
  }
  error.textContent = "";
  document.getElementById("title").textContent = data.title;
  document.title = tr("Draughts bot: {title}", { title: data.title });
  document.getElementById("status").textContent = data.status;
  const arena = data.format === "arena";
  for (const th of document.querySelectorAll("#standings .swiss")) th.hidden = arena;
  for (const th of document.querySelectorAll("#standings .arena")) th.hidden = !arena;
  const rows = data.standings.map((row) => {
    const tr_ = document.createElement("tr");
    const name = row.fire ? `${row.name} 🔥` : row.name;
    tr_.append(cell(formatNumber(row.place)), cell(name), cell(row.points));
    if (arena) tr_.append(cell(row.scores, "arena"));
    else tr_.append(cell(row.buchholz, "swiss"), cell(row.berger, "swiss"));
    return tr_;
  });
  document.querySelector("#standings tbody").replaceChildren(...rows);
  const none = (text) => { const li = document.createElement("li"); li.textContent = text; return [li]; };
  const on = data.on.map((g) => item(board(g), g.path));
  const done = data.done.map((g) => item(board(g), g.path));
  document.getElementById("on-card").hidden = data.finished;
  document.getElementById("on").replaceChildren(...(on.length ? on : none(tr("No game on."))));
  document.getElementById("done").replaceChildren(...(done.length ? done : none(tr("No finished game yet."))));
  if (!data.finished) setTimeout(show, EVERY);
}

show();
