// The leaderboards: /leaderboard lists the games, /leaderboard/<game> ranks the people and bots who play it rated.
import { useEffect, useState } from "preact/hooks";
import { api, html } from "./ui.js";
import { TopBar, personHref } from "./account.js";

function useGames() {
  const [games, setGames] = useState(null);
  useEffect(() => { api("/api/games").then(setGames).catch(() => setGames([])); }, []);
  return games;
}

const boardHref = (id) => `/leaderboard/${encodeURIComponent(id)}`;

// The games as tabs, the one shown marked.
function GameTabs({ games, current }) {
  return html`<nav class="tabs" aria-label="Games">${games.map((g) => html`
    <a href=${boardHref(g.id)} class=${g.id === current ? "tab chosen" : "tab"}
      aria-current=${g.id === current ? "page" : undefined}>${g.title}</a>`)}</nav>`;
}

export function LeaderboardIndex() {
  const games = useGames();
  useEffect(() => { document.title = "Leaderboards · ninjatable"; }, []);
  return html`<${TopBar} />
    <main class="narrow"><section class="panel"><h1>Leaderboards</h1>
      <p>Rated tables rank their players, people and bots alike, by a cautious rating: the skill the games played
        show for sure (one decimal).</p>
      ${games === null ? html`<p>Loading the games…</p>` : html`<ul class="game-links">
        ${games.map((g) => html`<li><a href=${boardHref(g.id)}>${g.title}</a> <span class="muted">${g.summary}</span></li>`)}
      </ul>`}</section></main>`;
}

export function Leaderboard({ game }) {
  const games = useGames();
  const [board, setBoard] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api(`/api/leaderboard/${encodeURIComponent(game)}`).then((b) => {
      setBoard(b);
      document.title = `Leaderboard: ${b.title} · ninjatable`;
    }).catch((e) => setError(e.message));
  }, [game]);
  return html`<${TopBar} />
    <main class="narrow leaderboard">
      ${games && games.length > 0 && html`<${GameTabs} games=${games} current=${game} />`}
      <section class="panel">
        ${error ? html`<p class="error" role="alert">${error}</p>`
          : !board ? html`<p>Loading…</p>` : html`<h1>${board.title}</h1><${Ranking} entries=${board.entries} />`}
      </section></main>`;
}

function EntryName({ entry }) {
  if (entry.kind === "bot") return html`<span class="bot-name">bot: ${entry.name}</span>`;
  return html`<a href=${personHref(entry.name)}>${entry.name}</a>`;
}

function Ranking({ entries }) {
  if (!entries.length) return html`<p class="muted">No rated game of this one has finished yet.</p>`;
  return html`<div class="scroll"><table class="ranking">
    <thead><tr><th scope="col">Rank</th><th scope="col" class="who">Name</th><th scope="col">Rating</th>
      <th scope="col">Games</th><th scope="col">Wins</th></tr></thead>
    <tbody>${entries.map((e) => html`<tr class=${e.kind}>
      <td>${e.rank}</td><th scope="row" class="who"><${EntryName} entry=${e} /></th>
      <td>${e.rating.toFixed(1)}</td><td>${e.games}</td><td>${e.wins}</td></tr>`)}</tbody></table></div>`;
}
