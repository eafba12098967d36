// The puzzles' page: each game that has puzzles, with links to its daily puzzle, to the next one for the reader (of
// any theme, or of the theme they choose) and to a streak.
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
    random.textContent = tr("A puzzle for me");
    const streak = document.createElement("a");
    streak.className = "button streak";
    streak.href = game.streak;
    streak.textContent = tr("Puzzle streak");
    streak.title = tr("Puzzles that get harder, until the first miss");
    links.append(daily, random, streak);
    const themes = document.createElement("p");  // one link a theme: the next puzzles of that theme only
    themes.className = "themes";
    themes.append(tr("By theme:"));
    for (const [name, count] of Object.entries(game.themes)) {
      const [words, meaning] = PUZZLE_THEMES[name] ? PUZZLE_THEMES[name]() : [name, ""];
      const link = document.createElement("a");
      link.href = `${game.random}?theme=${encodeURIComponent(name)}`;
      link.textContent = `${words} (${formatNumber(count)})`;
      link.title = meaning;
      link.dataset.theme = name;
      themes.append(" ", link);
    }
    card.append(title, lead, links, themes);
    return card;
  });
  if (!cards.length) error.textContent = tr("No game has puzzles yet.");
  document.getElementById("puzzle-games").replaceChildren(...cards);
}

list();
