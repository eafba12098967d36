// The front page: the games on, and the forms that start a game against the bot or a bot match.
"use strict";

const $ = (id) => document.getElementById(id);

async function refresh() {
  try {
    const response = await fetch("/api/games");
    const data = await response.json();
    for (const select of document.querySelectorAll("select.variants")) {
      if (select.options.length) continue;
      for (const name of data.variants) {
        const option = document.createElement("option");
        option.value = name;
        option.textContent = data.names[name] || name;
        select.appendChild(option);
      }
    }
    const list = $("games");
    list.replaceChildren();
    for (const game of data.games) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = game.path;
      const title = document.createElement("span");  // "English: ● Bot level 1 – ○ ana", each side's piece and name
      title.className = "game-title";
      title.append(`${game.name}: `);
      game.players.forEach(([colour, name], i) => {
        const mark = document.createElement("span");
        mark.className = `piece-mark ${colour.toLowerCase()}`;
        mark.title = colourName(colour);
        mark.setAttribute("role", "img");
        mark.setAttribute("aria-label", colourName(colour));
        const player = document.createElement("span");
        player.className = "name";
        player.textContent = name;
        title.append(...(i ? [" – "] : []), mark, " ", player);
      });
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = tr("moves: {moves} · watching: {watchers}",
                            { moves: formatNumber(game.moves), watchers: formatNumber(game.watchers) });
      link.append(title, " ", meta);  // a space between, so that copied text does not run together
      item.appendChild(link);
      list.appendChild(item);
    }
    if (!data.games.length) {
      const item = document.createElement("li");
      item.className = "none";
      item.textContent = tr("None right now: start one above.");
      list.appendChild(item);
    }
  } catch (error) {
    $("error").textContent = tr("The server is not answering; trying again.");
  }
}

async function start(body) {
  $("error").textContent = "";
  let response;
  try {
    response = await fetch("/api/new", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify(body) });
  } catch (error) {
    $("error").textContent = tr("The server is not answering, so no game started. Try again in a moment.");
    return;
  }
  const text = await response.text();
  let data = {};
  try { data = JSON.parse(text); } catch (error) { data = { error: text }; }  // a plain answer, as a 503 is
  if (data.url) location.href = data.url;
  else $("error").textContent = data.error || tr("The game did not start.");
}

$("play").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target.elements;
  const timed = f.control.value !== "untimed";  // (against a clock the bot plays by its clock, not a time a move)
  start({ kind: "bot", variant: f.variant.value, level: Number(f.level.value), colour: f.colour.value,
          control: f.control.value, ...(timed ? {} : { time: Number(f.time.value) }), name: f.name.value });
});
$("match").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target.elements;
  start({ kind: "match", variant: f.variant.value, levels: [Number(f.level1.value), Number(f.level2.value)],
          control: f.control.value, delay: Number(f.delay.value) });
});
refresh();
setInterval(refresh, 5000);
