// The lobby: the games, a form to create a table, and the public tables to join or watch.
import { useEffect, useState } from "preact/hooks";
import { api, html, seats } from "./ui.js";
import { TopBar, authHref, useAccount } from "./account.js";

const BOTS = [
  ["heuristic", "Bot: heuristic (plays by the game's strategy)"],
  ["ismcts:ms=1000", "Bot: search (thinks about a second)"],
  ["random", "Bot: random"],
];

export function Lobby() {
  const [games, setGames] = useState(null);
  const [error, setError] = useState("");
  const account = useAccount();
  useEffect(() => { api("/api/games").then(setGames).catch((e) => setError(e.message)); }, []);
  useEffect(() => { document.title = "ninjatable"; }, []);
  return html`
    <${TopBar} tagline="ninja card games, online" />
    <main class="lobby">
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${games && account !== undefined ? html`<${CreateTable} games=${games} account=${account} />`
        : html`<p>Loading the games…</p>`}
      <${TableList} />
    </main>`;
}

function optionControl(option, value, onChange) {
  const id = `opt-${option.name}`;
  if (typeof option.default === "boolean") {
    return html`<label class="check" for=${id}><input id=${id} type="checkbox" checked=${value}
      onChange=${(e) => onChange(e.target.checked)} /> ${option.name}</label>`;
  }
  if (option.choices) {
    return html`<label for=${id}>${option.name}</label>
      <select id=${id} value=${String(value)} onChange=${(e) => onChange(
        typeof option.default === "number" ? Number(e.target.value) : e.target.value)}>
        ${option.choices.map((c) => html`<option value=${String(c)}>${String(c)}</option>`)}
      </select>`;
  }
  return html`<label for=${id}>${option.name}</label>
    <input id=${id} type="number" min=${option.minimum ?? undefined} max=${option.maximum ?? undefined}
      value=${value} onInput=${(e) => onChange(Number(e.target.value))} />`;
}

// The seat-1 line of the form: a logged-in person sits as their account; a guest gives a name.
function SeatOne({ account, sitting, setSitting, name, setName }) {
  const box = html`<input type="checkbox" checked=${sitting} onChange=${(e) => setSitting(e.target.checked)} />`;
  if (account) {
    return html`<div class="field"><label class="check">${box} I play at seat 1, as <b class="as">${account}</b></label></div>`;
  }
  return html`<div class="field">
    <label class="check">${box} I play at seat 1, as</label>
    <input aria-label="Your name" placeholder="your name" maxlength="32" value=${name}
      onInput=${(e) => setName(e.target.value)} disabled=${!sitting} />
    <small><a href=${authHref("login", "/")}>Log in</a> or <a href=${authHref("signup", "/")}>sign up</a> to play
      rated tables under your own name.</small>
  </div>`;
}

function CreateTable({ games, account }) {
  const [gameId, setGameId] = useState(games[0].id);
  const game = games.find((g) => g.id === gameId);
  const [players, setPlayers] = useState(game.default_players);
  const [options, setOptions] = useState({});
  const [name, setName] = useState(localStorage.getItem("ninjatable:name") || "");
  const [sitting, setSitting] = useState(true);
  const [others, setOthers] = useState([]);
  const [settings, setSettings] = useState({ grace_seconds: 60, clock_seconds: null, bot: "heuristic", public: true,
                                             bot_pause: 0.6, live: true, timings: {},
                                             countdown_seconds: 3, reaction_min: 0.6, reaction_max: 1.5,
                                             rated: false, hints: false });
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setPlayers(game.default_players);
    setOptions(Object.fromEntries(game.options.map((o) => [o.name, o.default])));
  }, [gameId]);
  useEffect(() => {
    setOthers((old) => Array.from({ length: players }, (_, i) => old[i] || "open"));
  }, [players]);

  async function create(event) {
    event.preventDefault();
    setError("");
    if (sitting && !account && !name.trim()) { setError("Give your name to take seat 1."); return; }
    const seatList = others.map((kind, i) => {
      if (i === 0 && sitting) return account ? { kind: "person" } : { kind: "person", name: name.trim() };
      return kind === "open" ? { kind: "open" } : { kind: "bot", bot: kind };
    });
    setBusy(true);
    // A game played in real time: a live table plays with the game's live options, and times each kind of step
    // the game declares (a kind the form leaves alone keeps the game's default).
    const live = Boolean(game.live) && settings.live;
    const timings = Object.fromEntries(game.live_timings.filter((t) => t.name in settings.timings)
      .map((t) => [t.name, settings.timings[t.name]]));
    const { rated, ...shared } = settings;
    const body = { game: gameId, players, options: live ? { ...options, ...game.live } : options, seats: seatList,
                   settings: { ...shared, live: game.live ? settings.live : false, timings: live ? timings : {},
                               ...(account ? { rated } : {}) } };
    try {
      const created = await api("/api/tables", { method: "POST", body });
      if (sitting) {
        // A guest's seat is held by its token, kept in this browser; an account's by its session.
        if (!account) {
          localStorage.setItem("ninjatable:name", name.trim());
          seats.set(created.table.id, 0, created.tokens[0].token, name.trim());
        }
      }
      location.href = `/t/${created.table.id}`;
    } catch (e) {
      setError(e.message);
      setBusy(false);
    }
  }

  return html`
    <section class="panel">
      <h1>Start a table</h1>
      <div class="games" role="radiogroup" aria-label="Game">
        ${games.map((g) => html`
          <button type="button" role="radio" aria-checked=${g.id === gameId}
            class=${`game-choice${g.id === gameId ? " chosen" : ""}`} onClick=${() => setGameId(g.id)}>
            <strong>${g.title}</strong>
            <span class="players">${g.players.length > 1 ? `${g.players[0]}–${g.players.at(-1)}` : g.players[0]} players</span>
            <span class="summary">${g.summary}</span>
          </button>`)}
      </div>
      <form onSubmit=${create} class="create">
        <div class="field">
          <label for="players">Players</label>
          <select id="players" value=${players} onChange=${(e) => setPlayers(Number(e.target.value))}>
            ${game.players.map((p) => html`<option value=${p}>${p}</option>`)}
          </select>
        </div>
        ${game.options.length > 0 && html`<fieldset><legend>Options</legend>
          ${game.options.filter((o) => !(game.live && settings.live && o.name in game.live)).map((o) => html`<div class="field">
            ${optionControl(o, options[o.name] ?? o.default, (v) => setOptions({ ...options, [o.name]: v }))}
            <small>${o.description} (default ${String(o.default)})</small></div>`)}
        </fieldset>`}
        <fieldset><legend>Seats</legend>
          <${SeatOne} account=${account} sitting=${sitting} setSitting=${setSitting} name=${name} setName=${setName} />
          ${others.map((kind, i) => (i === 0 && sitting) ? null : html`<div class="field">
            <label for=${`seat-${i}`}>Seat ${i + 1}</label>
            <select id=${`seat-${i}`} value=${kind}
              onChange=${(e) => setOthers(others.map((k, j) => (j === i ? e.target.value : k)))}>
              <option value="open">Open: for a friend with the invite link</option>
              ${BOTS.map(([spec, text]) => html`<option value=${spec}>${text}</option>`)}
            </select></div>`)}
        </fieldset>
        ${game.live && html`<fieldset><legend>Play live</legend>
          <label class="check"><input type="checkbox" id="live" checked=${settings.live}
            onChange=${(e) => setSettings({ ...settings, live: e.target.checked })} />
            ${game.live_summary || "Play in real time"}</label>
          ${settings.live && game.live_timings.map((t) => html`<div class="field">
            <label for=${`timing-${t.name}`}>${t.setting}</label>
            <input id=${`timing-${t.name}`} type="number" min="1" max="300"
              value=${t.name in settings.timings ? settings.timings[t.name] : t.seconds}
              onInput=${(e) => setSettings({ ...settings, timings: { ...settings.timings, [t.name]: Number(e.target.value) } })} />
          </div>`)}
          ${settings.live && html`<div class="field"><label for="countdown">The count before the chosen cards move (seconds)</label>
            <input id="countdown" type="number" min="0" max="10" step="0.5" value=${settings.countdown_seconds}
              onInput=${(e) => setSettings({ ...settings, countdown_seconds: Number(e.target.value) })} /></div>
          <div class="field"><label for="reaction-min">Bots react after at least (seconds)</label>
            <input id="reaction-min" type="number" min="0" max="10" step="0.1" value=${settings.reaction_min}
              onInput=${(e) => setSettings({ ...settings, reaction_min: Number(e.target.value) })} /></div>
          <div class="field"><label for="reaction-max">and at most (seconds)</label>
            <input id="reaction-max" type="number" min="0" max="10" step="0.1" value=${settings.reaction_max}
              onInput=${(e) => setSettings({ ...settings, reaction_max: Number(e.target.value) })} /></div>`}
        </fieldset>`}
        <details><summary>Table settings</summary>
          ${account && html`<div class="field"><label class="check"><input type="checkbox" checked=${settings.rated}
            onChange=${(e) => setSettings({ ...settings, rated: e.target.checked, hints: e.target.checked ? false : settings.hints })} /> Rated (accounts only, bots allowed)</label>
            <small>The game counts for the ratings and the leaderboard; every person seat is taken by an account.</small></div>`}
          <div class="field"><label class="check"><input type="checkbox" id="hints" checked=${settings.hints && !settings.rated}
            disabled=${settings.rated} onChange=${(e) => setSettings({ ...settings, hints: e.target.checked })} />
            Hints (the table's bot suggests a move on request)</label>
            <small>${settings.rated ? "A rated table gives no hints." : "At their move, a player may ask what the table's bot would play (from their own cards only)."}</small></div>
          <div class="field"><label for="grace">A bot plays for someone away longer than (seconds)</label>
            <input id="grace" type="number" min="0" max="3600" value=${settings.grace_seconds}
              onInput=${(e) => setSettings({ ...settings, grace_seconds: Number(e.target.value) })} /></div>
          <div class="field"><label for="clock">Time for each decision</label>
            <select id="clock" value=${String(settings.clock_seconds)}
              onChange=${(e) => setSettings({ ...settings, clock_seconds: e.target.value === "null" ? null : Number(e.target.value) })}>
              <option value="null">No clock</option><option value="30">30 s</option>
              <option value="60">1 min</option><option value="180">3 min</option>
            </select></div>
          <div class="field"><label for="takeover">The bot that stands in</label>
            <select id="takeover" value=${settings.bot} onChange=${(e) => setSettings({ ...settings, bot: e.target.value })}>
              ${BOTS.map(([spec, text]) => html`<option value=${spec}>${text}</option>`)}
            </select></div>
          <div class="field"><label for="pause">Bots wait before each move (seconds)</label>
            <input id="pause" type="number" min="0" max="10" step="0.1" value=${settings.bot_pause}
              onInput=${(e) => setSettings({ ...settings, bot_pause: Number(e.target.value) })} /></div>
          <div class="field"><label class="check"><input type="checkbox" checked=${settings.public}
            onChange=${(e) => setSettings({ ...settings, public: e.target.checked })} /> Public: listed here, open to spectators</label></div>
        </details>
        ${error && html`<p class="error" role="alert">${error}</p>`}
        <button class="btn primary" type="submit" disabled=${busy}>Create the table</button>
      </form>
    </section>`;
}

function TableList() {
  const [tables, setTables] = useState([]);
  useEffect(() => {
    let alive = true;
    const load = () => api("/api/tables").then((t) => alive && setTables(t)).catch(() => {});
    load();
    const timer = setInterval(load, 5000);
    return () => { alive = false; clearInterval(timer); };
  }, []);
  return html`
    <section class="panel">
      <h2>Tables</h2>
      ${tables.length === 0 ? html`<p class="muted">No public tables yet.</p>` : html`
        <ul class="tables">${tables.map((t) => html`<li>
          <span><strong>${t.title}</strong>${t.rated ? html` <span class="badge rated">Rated</span>` : ""} · ${t.players} players · ${t.status}
          ${t.open_seats ? ` · ${t.open_seats} open seat${t.open_seats > 1 ? "s" : ""}` : ""}</span>
          <span class="seatnames">${t.seats.map((s) => s.kind === "person" ? s.name : s.kind === "bot" ? `bot` : "open").join(", ")}</span>
          <span class="links">
            ${t.status === "waiting" && t.open_seats > 0 && html`<a class="btn" href=${`/t/${t.id}`}>Join</a>`}
            ${t.status === "finished" ? html`<a class="btn" href=${`/t/${t.id}/replay`}>Replay</a>`
              : html`<a class="btn" href=${`/t/${t.id}/watch`}>Watch</a>`}
          </span></li>`)}</ul>`}
    </section>`;
}
