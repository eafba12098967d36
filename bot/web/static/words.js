// The page's words in its reader's language: ``tr`` gives a text in it (the server put the translations in the
// page), and the header's chooser changes it.
"use strict";

const TEXTS = JSON.parse(document.getElementById("texts").textContent || "{}");

// ``message`` (English, as the catalog has it) in the page's language, its ``{name}`` placeholders filled from
// ``values``; English when it has no translation.
function tr(message, values = {}) {
  const template = TEXTS[message] || message;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// The chooser: the choice is kept for a year in a cookie the server reads, and the page is shown again in it.
document.getElementById("language").addEventListener("change", (event) => {
  document.cookie = `draughts_language=${encodeURIComponent(event.target.value)}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
});

// A side's name ("White" or "Black", as the server sends it) in the page's language.
function colourName(colour) {
  return colour === "White" ? tr("White") : colour === "Black" ? tr("Black") : colour;
}

// A number as the page's language writes it, with its decimal mark and thousands separator ("0,35" and "300 000" in
// French); ``options`` as Intl.NumberFormat's (digits, sign, percent).
function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(document.documentElement.lang || "en", options).format(value);
}

// A score in men, as evaluations are written: signed, two decimals ("+0.35", "-1.20"; "0.00" for none).
function formatScore(value) {
  return formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" });
}

// Each puzzle theme's name and what it means (the miner's themes: engine/puzzles/puzzle.py).
const PUZZLE_THEMES = {
  shot: () => [tr("shot"), tr("a sacrifice that opens the way for captures")],
  breakthrough: () => [tr("breakthrough"), tr("a man through to the king row")],
  ending: () => [tr("ending"), tr("few pieces left, or an endgame win")],
  tactic: () => [tr("tactic"), tr("a tactic that wins material")],
};

// A seat link's #fragment (its secret, which never goes to the server) kept in this tab while the person signs in
// with Discord, given back to the page they return to, before its own script reads it.
(function keepFragment() {
  let kept = null;
  try {
    kept = sessionStorage.getItem("signin-return");
    sessionStorage.removeItem("signin-return");
  } catch (error) { return; }  // (a browser that keeps no site storage: nothing was kept)
  if (!kept) return;
  const [path, hash] = JSON.parse(kept);
  if (path === location.pathname && !location.hash) history.replaceState(null, "", location.pathname + location.search + hash);
})();

// The header's account: the signed-in person's name and Sign out, or Sign in (with Discord) when the bot offers it;
// nothing for a guest of a bot that does not. ``account`` is the server's answer ({signin, name}), for the pages.
const account = (async () => {
  const slot = document.getElementById("account");
  let data = { signin: false, name: null };
  try {
    data = await (await fetch("/api/account", { cache: "no-store" })).json();
  } catch (error) { /* the server is not answering: the page goes on as a guest's */ }
  if (!slot) return data;
  if (data.name) {
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = data.name;
    name.title = tr("Signed in with Discord");
    const out = document.createElement("button");
    out.id = "sign-out";
    out.textContent = tr("Sign out");
    out.addEventListener("click", async () => {
      await fetch("/logout", { method: "POST" }).catch(() => null);
      location.reload();
    });
    slot.replaceChildren(name, out);
  } else if (data.signin) {
    const link = document.createElement("a");
    link.id = "sign-in";
    link.className = "nav";
    link.href = `/login?next=${encodeURIComponent(location.pathname + location.search)}`;  // (not a seat's #secret:
    link.addEventListener("click", () => {  // it stays in this tab, given back on the way home: keepFragment)
      try {
        if (location.hash) sessionStorage.setItem("signin-return", JSON.stringify([location.pathname, location.hash]));
      } catch (error) { /* no site storage: the seat's link is opened again from the chat */ }
    });
    link.textContent = tr("Sign in");
    link.title = tr("Sign in with Discord: your games, puzzles and ratings here are kept under your Discord account");
    slot.replaceChildren(link);
  }
  return data;
})();
