// The page of the person on this browser: their games on the page (on, and finished with their ends), ratings, and
// puzzles (their puzzle ratings, and the puzzles they tried, the latest first); or, on /p/REF, a chat player's.
"use strict";

function item(text, path) {
  const li = document.createElement("li");
  if (path) {
    const link = document.createElement("a");
    link.href = path;
    link.textContent = text;
    li.append(link);
  } else li.textContent = text;
  return li;
}

function players(game) {
  return tr("{white} (White) vs {black} (Black)", { white: game.players.White, black: game.players.Black });
}

async function show() {
  const error = document.getElementById("error");
  let data;
  try {
    const response = await fetch(location.pathname === "/me" ? "/api/me" : `/api${location.pathname}`);
    const text = await response.text();
    try { data = JSON.parse(text); } catch (e) { data = { error: text }; }  // a plain answer, as a 503 is
  } catch (e) {
    error.textContent = tr("The server is not answering. Reload the page to try again.");
    return;
  }
  if (data.error) {
    error.textContent = data.error;
    return;
  }
  const signed = (await account).name;
  if (location.pathname === "/me" && signed) {  // signed in with Discord: their games wherever they played
    document.querySelector(".intro p").textContent = tr("Signed in with Discord as {name}: your games, ratings and "
      + "puzzles on this page.", { name: signed });
  }
  if (location.pathname !== "/me") {  // a chat player's page: theirs, not "My games"
    const title = data.name ? tr("{name}'s games", { name: data.name }) : tr("A player's games");
    document.querySelector("h1").textContent = title;
    document.title = tr("Draughts bot: {title}", { title });
    document.querySelector(".intro p").textContent = tr("Their finished games on their chat server, and their "
      + "ratings there.");
    document.getElementById("on-card").hidden = true;  // (a game on in a private channel is not shown here)
  }
  const none = (text) => [item(text)];
  const live = data.on.map((g) => item(tr("#{number} {game}, {control}: {players}", { number: g.id, game: g.game,
    control: g.control, players: players(g) }), g.path));
  const games = data.games.map((g) => item(tr("#{number} {game}, {control}: {players}. {result}", { number: g.id,
    game: g.game, control: g.control, players: players(g), result: g.result }), g.path));
  const ratings = data.ratings.map((r) => item(tr("{game}, {speed}: {rating} (rated games: {count})",
    { game: r.game, speed: r.speed, rating: r.rating, count: formatNumber(r.games) })));
  const events = data.events.map((e) => item(e.title, e.path));
  const puzzleRatings = data.puzzles.ratings.map((r) => item(tr("{game}: puzzle rating {rating} (puzzles: {count})",
    { game: r.game, rating: r.rating, count: formatNumber(r.puzzles) })));
  const puzzles = data.puzzles.history.map((p) => {
    const result = p.solved ? tr("solved") : tr("missed");
    const text = p.rating === null ? tr("{game}: {result}", { game: p.game, result })
      : tr("{game}: {result}, puzzle rating {rating} after it", { game: p.game, result, rating: formatNumber(p.rating, { useGrouping: false }) });
    const li = item(text, p.path);
    li.className = p.solved ? "solved" : "missed";
    return li;
  });
  document.getElementById("my-puzzle-ratings").replaceChildren(...(puzzleRatings.length ? puzzleRatings
    : none(tr("No puzzle tried yet."))));
  document.getElementById("my-puzzles").replaceChildren(...puzzles);
  document.getElementById("my-events").replaceChildren(...(events.length ? events : none(tr("No tournament yet."))));
  document.getElementById("my-live").replaceChildren(...(live.length ? live : none(tr("No game on."))));
  document.getElementById("my-games").replaceChildren(...(games.length ? games : none(tr("No finished game yet."))));
  document.getElementById("my-ratings").replaceChildren(...(ratings.length ? ratings : none(tr("No rated game yet."))));
}

show();
