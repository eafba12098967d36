// The puzzles' page: each game that has puzzles, with links to its daily puzzle and to a random one.
"use strict";

async function list() {
  const error = document.getElementById("error");
  let data;
  try {
    const response = await fetch("/api/puzzles");
    data = await response.json();
  } catch (e) {
    error.textContent = tr("The server is not answering. Reload the page to try again.");
    return;
  }
  const cards = data.variants.map((game) => {
    const card = document.createElement("section");
    card.className = "card puzzle-game";
    card.dataset.variant = game.name;
    const title = document.createElement("h2");
    title.textContent = game.title;
    const lead = document.createElement("p");
    lead.className = "lead";
    lead.textContent = tr("puzzles: {count}", { count: formatNumber(game.count) });
    const links = document.createElement("div");
    links.className = "links";
    const daily = document.createElement("a");
    daily.className = "button primary daily";
    daily.href = game.daily;
    daily.textContent = tr("Today's puzzle");
    const random = document.createElement("a");
    random.className = "button random";
    random.href = game.random;
    random.textContent = tr("A random puzzle");
    links.append(daily, random);
    card.append(title, lead, links);
    return card;
  });
  if (!cards.length) error.textContent = tr("No game has puzzles yet.");
  document.getElementById("puzzle-games").replaceChildren(...cards);
}

list();
