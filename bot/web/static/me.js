// The page of the person on this browser: their games on the page (on, and finished with their ends) and ratings.
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
  let data;
  try {
    data = await (await fetch(location.pathname === "/me" ? "/api/me" : `/api${location.pathname}`)).json();
  } catch (error) {
    document.getElementById("error").textContent = tr("The server is not answering. Reload the page to try again.");
    return;
  }
  if (location.pathname !== "/me" && data.name) {  // a chat player's page: their name, not "My games"
    document.querySelector("h1").textContent = tr("{name}'s games", { name: data.name });
    document.querySelector(".intro p").textContent = tr("Their games on their chat server, and their ratings there.");
  }
  const none = (text) => [item(text)];
  const live = data.on.map((g) => item(`#${g.id} ${g.game}, ${g.control}: ${players(g)}`, g.path));
  const games = data.games.map((g) => item(`#${g.id} ${g.game}, ${g.control}: ${players(g)}. ${g.result}`, g.path));
  const ratings = data.ratings.map((r) => item(tr("{game}, {speed}: {rating} (rated games: {count})",
    { game: r.game, speed: r.speed, rating: r.rating, count: formatNumber(r.games) })));
  document.getElementById("my-live").replaceChildren(...(live.length ? live : none(tr("No game on."))));
  document.getElementById("my-games").replaceChildren(...(games.length ? games : none(tr("No finished game yet."))));
  document.getElementById("my-ratings").replaceChildren(...(ratings.length ? ratings : none(tr("No rated game yet."))));
}

show();
