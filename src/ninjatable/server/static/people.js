// A person's page (/people/<name>): since when, each game's rating and its history, places, and the games played.
import { useEffect, useState } from "preact/hooks";
import { api, html } from "./ui.js";
import { MyTables, TopBar, personHref, safeNext, tableHref, useAccount } from "./account.js";
import { RatingPlot } from "./plot.js";

export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

// A rating change with its sign and one decimal: +1.2, -0.8.
export function signed(change) {
  const rounded = Math.round(change * 10) / 10;
  return `${rounded < 0 ? "-" : "+"}${Math.abs(rounded).toFixed(1)}`;
}

export function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });
}

// How a seat is named in a list: a person's account links to their page, a guest says so, a bot by its kind.
export function SeatName({ seat }) {
  if (seat.kind === "bot") return html`<span class="bot-name">bot: ${seat.bot || seat.name}</span>`;
  if (seat.account) return html`<a href=${personHref(seat.account)}>${seat.name || seat.account}</a>`;
  if (seat.kind === "person") return html`<span>${seat.name} <span class="muted">(guest)</span></span>`;
  return html`<span class="muted">open</span>`;
}

export function PersonPage({ name }) {
  const [person, setPerson] = useState(null);
  const [error, setError] = useState(null);
  const me = useAccount();
  useEffect(() => {
    document.title = `${name} · ninjatable`;
    api(`/api/people/${encodeURIComponent(name)}`).then(setPerson).catch(setError);
  }, [name]);
  if (error) {
    const text = error.code === "no_person" || error.status === 404 ? `No one here is called “${name}”.` : error.message;
    return html`<${TopBar} /><main class="narrow"><p class="error" role="alert">${text}</p>
      <p><a href="/leaderboard">The leaderboards</a> · <a href="/">The lobby</a></p></main>`;
  }
  if (!person) return html`<${TopBar} /><main class="narrow"><p>Loading…</p></main>`;
  const own = Boolean(me) && me === person.name;
  return html`<${TopBar} />
    <main class="person">
      <section class="panel who"><h1 class="name">${person.name}</h1>
        <p class="muted">Member since ${day(person.since)}${own ? " · this is you" : ""}</p></section>
      ${own && html`<${MyTables} name=${me} />`}
      <${GameStats} person=${person} />
      <${GamesList} person=${person} />
    </main>`;
}

// One card per game the person played: the rating and its plot when rated, games, wins and places.
function GameStats({ person }) {
  const ids = [...new Set([...person.ratings.map((r) => r.game), ...person.played.map((p) => p.game)])];
  if (!ids.length) return html`<section class="panel"><p class="muted">No finished games yet.</p></section>`;
  return html`<div class="game-stats">${ids.map((id) => html`<${GameCard} key=${id}
    rating=${person.ratings.find((r) => r.game === id)} played=${person.played.find((p) => p.game === id)} />`)}</div>`;
}

function GameCard({ rating, played }) {
  const title = (rating || played).title;
  const game = (rating || played).game;
  return html`<section class="panel game-card" aria-label=${title}>
    <h2><a href=${`/leaderboard/${encodeURIComponent(game)}`}>${title}</a></h2>
    ${rating ? html`<p class="rating">Rating <strong>${rating.rating.toFixed(1)}</strong>
        <span class="muted"> (${rating.games} rated game${rating.games === 1 ? "" : "s"}, ${rating.wins} won)</span></p>
      <${RatingPlot} history=${rating.history} title=${title} />`
      : html`<p class="muted">No rated games yet.</p>`}
    ${played && html`<p>${played.games} game${played.games === 1 ? "" : "s"} played, ${played.wins} won</p>
      <p class="places">${played.places.map((n, i) => html`<span class="place">${ordinal(i + 1)}: <b>${n}</b></span>`)}</p>`}
  </section>`;
}

// The finished games, newest first: place, score, rating change, who sat there, and the replay.
function GamesList({ person }) {
  if (!person.games.length) return null;
  return html`<section class="panel"><h2>Games</h2><ul class="games-list">
    ${person.games.map((g) => html`<li>
      <span class="place-tag" title="place">${ordinal(g.place)}</span>
      <span class="about"><span><strong>${g.title}</strong> · ${day(g.finished_at)} · score ${g.score}${g.rated
        ? (g.change === null ? " · rated" : html` · <span class=${`change ${g.change < 0 ? "down" : "up"}`}
          title="rating change">${signed(g.change)}</span>`) : ""}</span>
        <span class="seatnames">Players: ${g.seats.map((s, i) => html`${i ? ", " : ""}<${SeatName} seat=${s} />`)}</span></span>
      <a class="btn" href=${safeNext(g.replay_url) || `${tableHref(g.table)}/replay`}>Replay</a>
    </li>`)}</ul></section>`;
}
