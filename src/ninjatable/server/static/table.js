// One table: join a seat (or watch), then play live over the WebSocket. The page knows no game: the game's
// drawing comes from its web.js; legal actions it does not place are offered as plain buttons.
import { useEffect, useRef, useState } from "preact/hooks";
import { RecordLink, api, html, loadGame, makeUi, seatLabel, seats } from "./ui.js";
import { TopBar, authHref, personHref, tableHref, useAccount } from "./account.js";
import { RulesButton, RulesPanel, SoundToggle, nowLine, playTone, seatNames, useSound, withNames } from "./help.js";
import { GameAnalysis } from "./analysis.js";

// The protocol version the server put in the page (one number, in server/protocol.py).
const PROTOCOL = Number(document.querySelector('meta[name="ninjatable-protocol"]').content);

export function TablePage({ tableId, watch }) {
  const [info, setInfo] = useState(null);
  const [failure, setFailure] = useState("");
  const [stored, setStored] = useState(() => (watch ? null : seats.get(tableId)));
  const [lost, setLost] = useState(false);
  const [watching, setWatching] = useState(watch);
  const [game, setGame] = useState(undefined);
  const account = useAccount();

  useEffect(() => {
    api(`/api/tables/${encodeURIComponent(tableId)}`).then((state) => {
      setInfo(state.table);
      loadGame(state.table.game).then(setGame);
    }).catch((e) => setFailure(e.message));
  }, [tableId]);

  if (failure) {
    return html`<${Top} /><main class="narrow"><p class="error" role="alert">${failure}</p>
      <p><a href="/">Back to the lobby</a></p></main>`;
  }
  if (!info || game === undefined || account === undefined) {
    return html`<${Top} /><main class="narrow"><p>Loading the table…</p></main>`;
  }
  const identity = watch ? null : seatIdentity(info, account, lost) || stored;
  const open = info.seats.filter((s) => s.kind === "open").map((s) => s.seat);
  if (!identity && !watching) {
    if (info.status === "waiting" && open.length) {
      return html`<${JoinForm} info=${info} open=${open} account=${account} onJoined=${setStored}
        onWatch=${() => setWatching(true)} />`;
    }
    if (!info.settings.public) {
      return html`<${Top} /><main class="narrow"><p class="error">This table is private and its seats are taken.</p></main>`;
    }
  }
  return html`<${LiveTable} info=${info} game=${game} identity=${identity}
    onLostSeat=${() => { seats.forget(tableId); setStored(null); setLost(true); }} />`;
}

// The seat the logged-in account holds at this table (the page then sits there by the session, not a token).
function seatIdentity(info, account, lost) {
  if (!account || lost) return null;
  const mine = info.seats.find((s) => s.kind === "person" && s.account === account);
  return mine ? { seat: mine.seat, account: true, name: account } : null;
}

function Top({ title, rated, hints, children }) {
  return html`<${TopBar} title=${title} rated=${rated} hints=${hints}>${children}</${TopBar}>`;
}

function JoinForm({ info, open, account, onJoined, onWatch }) {
  const [name, setName] = useState(localStorage.getItem("ninjatable:name") || "");
  const kept = account && info.seats.find((s) => s.kind === "open" && s.offered === account);
  const [seat, setSeat] = useState(kept ? kept.seat : (open.find((s) => !info.seats[s].offered) ?? open[0]));
  const [error, setError] = useState("");
  async function join(event) {
    event.preventDefault();
    const body = account ? { seat } : { name: name.trim(), seat };
    try {
      const joined = await api(`/api/tables/${info.id}/join`, { method: "POST", body });
      const shown = account || name.trim();
      if (!account) {  // an account's seat is its session's, not this browser's: logging out leaves it
        localStorage.setItem("ninjatable:name", shown);
        seats.set(info.id, joined.seat, joined.token, shown);
      }
      onJoined({ seat: joined.seat, token: joined.token, name: shown, account: Boolean(account) });
    } catch (e) { setError(e.message); }
  }
  const here = tableHref(info.id);
  return html`<${Top} title=${info.title} rated=${info.rated} hints=${Boolean(info.settings.hints)} />
    <main class="narrow"><section class="panel">
      <h1>Join ${info.title}</h1>
      <p>${info.players} players: ${info.seats.map((s, i) => seatLabel(s, i, null)).join(", ")}.</p>
      ${info.rated && !account ? html`<p class="banner warn" role="status">This table is rated: <a
          href=${authHref("login", here)}>log in</a> or <a href=${authHref("signup", here)}>sign up</a> to play.</p>
        <p class="links"><button class="btn" type="button" onClick=${onWatch}>Just watch</button></p>`
      : html`<form onSubmit=${join} class="create">
        ${!account && html`<div class="field"><label for="name">Your name</label>
          <input id="name" required maxlength="32" value=${name} onInput=${(e) => setName(e.target.value)} />
          <small><a href=${authHref("login", here)}>Log in</a> to play under your account.</small></div>`}
        <div class="field"><label for="seat">Seat</label>
          <select id="seat" value=${seat} onChange=${(e) => setSeat(Number(e.target.value))}>
            ${open.map((s) => html`<option value=${s}>Player ${s + 1}${info.seats[s].offered
              ? ` (kept for ${info.seats[s].offered})` : ""}</option>`)}</select></div>
        ${error && html`<p class="error" role="alert">${error}</p>`}
        <div class="links"><button class="btn primary" type="submit">${account ? `Take the seat as ${account}` : "Take the seat"}</button>
        <button class="btn" type="button" onClick=${onWatch}>Just watch</button></div>
      </form>`}</section></main>`;
}

// A socket the server closed because it restarts (1012) or goes away (1001): it is back, or another process has
// taken its place, within seconds. The page then tries again at once, and every 250-500 ms (the jitter spreads a
// server's pages) for RESTART_MS, before it falls back to the doubling wait it keeps for other drops.
const RESTARTING = [1001, 1012];
const RESTART_MS = 10000;
const FIRST_RETRY = { backoff: 500, restartSince: null };

// The wait before the next connection, after a socket closed with `code` at `now` (ms), and what the next close
// then starts from; `retry` is what the closes since the last welcome left (FIRST_RETRY after a welcome).
export function reconnectAfter(retry, code, now, random = Math.random) {
  // Only the first restart close of an outage is tried again at once: a server that keeps closing with 1012
  // gets no tight loop, and once RESTART_MS has passed it gets the backoff like any other.
  if (RESTARTING.includes(code) && retry.restartSince === null) {
    return [0, { ...retry, restartSince: now }];
  }
  if (retry.restartSince !== null && now - retry.restartSince < RESTART_MS) {
    return [250 + Math.round(250 * random()), retry];
  }
  return [retry.backoff, { ...retry, backoff: Math.min(retry.backoff * 2, 8000) }];
}

// A table the server has ended for good: closed (4410: nobody was connected to it for long) or gone (4404:
// nobody joined it in time, or there never was one). Trying again could only cost the server a load of the table's
// moves, to be refused the same way. A socket open when its table ends is told by an error (`closed`, `expired`)
// before a plain close (1000).
const ENDED_BY_CLOSE = { 4410: "closed", 4404: "gone" };
const ENDED_BY_ERROR = { closed: "closed", expired: "gone", no_table: "gone" };

// Whether a socket that closed with `code`, the last error it received being `error` (its code, or null), leaves
// the table ended for good ("closed" or "gone"), or null: connect again.
export function tableEnded(code, error) {
  return ENDED_BY_CLOSE[code] || (code === 1000 && ENDED_BY_ERROR[error]) || null;
}

// The live connection: hello, welcome, updates; reconnects by itself when the socket drops, unless the table ended
// (then `ended` says how). `token`: a guest's seat token; `byAccount`: sit as the logged-in account's seat instead
// (the session says who).
function useTableSocket(tableId, token, byAccount, handlers) {
  const [status, setStatus] = useState("connecting");
  const [ended, setEnded] = useState(null);
  const socketRef = useRef(null);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  useEffect(() => {
    let stopped = false;
    let retry = FIRST_RETRY;
    let timer = null;
    function connect() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
      let lastError = null;
      socketRef.current = ws;
      ws.onopen = () => {
        const hello = byAccount ? { type: "hello", protocol: PROTOCOL, account: true }
          : { type: "hello", protocol: PROTOCOL, token: token || null };
        ws.send(JSON.stringify(hello));
      };
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "welcome") { retry = FIRST_RETRY; setStatus("open"); }
        if (message.type === "error") lastError = message.code;
        handlersRef.current(message);
      };
      ws.onclose = (event) => {
        if (stopped) return;
        const end = tableEnded(event.code, lastError);
        if (end) { setEnded(end); setStatus("ended"); return; }
        setStatus("reconnecting");
        const [wait, next] = reconnectAfter(retry, event.code, performance.now());
        retry = next;
        timer = setTimeout(connect, wait);
      };
    }
    connect();
    return () => { stopped = true; clearTimeout(timer); if (socketRef.current) socketRef.current.close(); };
  }, [tableId, token, byAccount]);
  const send = (message) => {
    const ws = socketRef.current;
    if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return true; }
    return false;
  };
  return [status, send, ended];
}

const ENDED_WORDS = {
  closed: "This table was closed: nobody was connected to it for a long while, so the game stopped where it was.",
  gone: "This table no longer exists: nobody joined it in time, or its link is wrong.",
};

// What the page says, for as long as it stays open, of a table ended for good.
function Ended({ how }) {
  return html`<p class="banner error" role="alert">${ENDED_WORDS[how]} <a href="/">Back to the lobby</a> to start a
    new one.</p>`;
}

function LiveTable({ info, game, identity, onLostSeat }) {
  const [update, setUpdate] = useState(null);
  const [events, setEvents] = useState([]);
  const [seat, setSeat] = useState(identity ? identity.seat : null);
  const [draft, setDraft] = useState([]);
  const [preview, setPreview] = useState(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");
  const [chat, setChat] = useState([]);
  const [flash, setFlash] = useState("");
  const [rematch, setRematch] = useState(info.rematch || null);
  const [rulesOpen, setRulesOpen] = useState(false);
  const [why, setWhy] = useState("");
  const [hint, setHint] = useState(null);  // the server's hint: {action, label, version}
  const [hinting, setHinting] = useState(false);
  const [sound, toggleSound] = useSound();
  const soundRef = useRef(sound);
  soundRef.current = sound;
  const updateRef = useRef(null);
  const draftRef = useRef(draft);
  draftRef.current = draft;

  const byAccount = Boolean(identity && identity.account);
  const [status, send, ended] = useTableSocket(info.id, identity && identity.token, byAccount, (message) => {
    if (message.type === "welcome") {
      setSeat(message.seat);
      setEvents([]);
      setChat(message.chat || []);
      if (message.table && message.table.rematch) setRematch(message.table.rematch);
    } else if (message.type === "rematch") {
      setRematch(message.table);
    } else if (message.type === "said") {
      setChat((old) => [...old.slice(-99), message]);
    } else if (message.type === "notice") {
      setFlash(message.text);
    } else if (message.type === "update") {
      // The gong at a live table: an instant action was just played (its event says so).
      if (soundRef.current && updateRef.current && message.live && message.events.some((e) => e.kind === "gong")) {
        playTone("gong");
      }
      updateRef.current = message;
      setWhy("");
      setUpdate(message);
      setBusy(false);
      setEvents((old) => [...old.slice(0, message.events_from), ...message.events]);
      const steps = draftRef.current;
      if (steps.length) {
        if (message.decision && message.decision.multi) send({ type: "preview", actions: steps });
        else { setDraft([]); setPreview(null); }
      }
    } else if (message.type === "preview") {
      if (JSON.stringify(message.actions) === JSON.stringify(draftRef.current)) setPreview(message);
    } else if (message.type === "error") {
      setBusy(false);
      if (["bad_token", "not_seated", "login", "logged_out"].includes(message.code)) { onLostSeat(); return; }
      if (tableEnded(1000, message.code)) return;  // said for good as the socket closes (Ended)
      setNotice(message.message);
      if (draftRef.current.length && ["illegal", "not_multi"].includes(message.code)) {
        const kept = draftRef.current.slice(0, -1);
        setDraft(kept);
        if (kept.length) send({ type: "preview", actions: kept }); else setPreview(null);
      }
    }
  });

  useEffect(() => {
    if (!notice) return undefined;
    const timer = setTimeout(() => setNotice(""), 6000);
    return () => clearTimeout(timer);
  }, [notice]);
  useEffect(() => {
    if (!flash) return undefined;
    const timer = setTimeout(() => setFlash(""), 3000);
    return () => clearTimeout(timer);
  }, [flash]);

  const shown = draft.length && preview ? preview : update;
  const decision = shown ? shown.decision : null;
  const myTurn = Boolean(update && update.legal.length);
  useEffect(() => {
    document.title = `${myTurn ? "(Your turn) " : ""}${info.title} · ninjatable`;
    if (myTurn && sound) playTone("move");
    if (myTurn) handIntoView();
  }, [myTurn, info.title]);
  useEffect(() => {
    if (!why) return undefined;
    const timer = setTimeout(() => setWhy(""), 6000);
    return () => clearTimeout(timer);
  }, [why]);

  function onAction(id) {
    if (busy || !shown) return;
    setNotice("");
    if (decision && decision.multi) {
      if (id === decision.confirm) {
        send({ type: "act", actions: [...draft, id] });
        setBusy(true);
        setDraft([]);
        setPreview(null);
      } else {
        const steps = [...draft, id];
        setDraft(steps);
        send({ type: "preview", actions: steps });
      }
      return;
    }
    // `at`: the version this choice was made from, so that a live table can tell a tap that lost the race.
    if (send({ type: "act", action: id, at: update.version })) setBusy(true);
  }
  // A hint, at a table that gives them: the move the table's bot would make for this seat now.
  async function askHint() {
    setHinting(true);
    setNotice("");
    const guest = identity && !identity.account && identity.token;
    try {
      const got = await api(`/api/tables/${encodeURIComponent(info.id)}/hint`, {
        method: "POST", headers: guest ? { authorization: `Bearer ${identity.token}` } : {} });
      setHint(got);
      hintedIntoView();
    } catch (e) { setNotice(e.message); } finally { setHinting(false); }
  }
  function undo() {
    const steps = draft.slice(0, -1);
    setDraft(steps);
    if (steps.length) send({ type: "preview", actions: steps }); else setPreview(null);
  }

  if (!update) {
    return html`<${Top} title=${info.title} rated=${info.rated} hints=${Boolean(info.settings.hints)}><${Connection} status=${status} /></${Top}>
      <main class="narrow">${ended ? html`<${Ended} how=${ended} />` : html`<p>Connecting to the table…</p>`}</main>`;
  }
  const seatInfo = update.seats;
  const names = seatNames(seatInfo, seat);
  const view = shown.view;
  const live = update.live;
  // The hint holds until the table moves past the move count it was given for, or the player's draft changes.
  const shownHint = hint && seat !== null && update.version === hint.version && update.legal.length
    && JSON.stringify(update.draft || []) === JSON.stringify(hint.draft || []) ? hint : null;
  const hinted = shownHint ? shownHint.label : null;
  const ui = view ? makeUi({ view, legal: shown.legal, refused: shown.refused || [], decision, me: seat, seatInfo,
                              onAction, busy: busy && !(live && live.held), live, events, names, hinted,
                              onRefused: (label, reason) => setWhy(`${label}: ${reason}`) }) : null;
  const instant = live && ui ? shown.legal.filter((a) => live.instant.includes(a.id)) : [];
  if (ui) instant.forEach((a) => ui.placed.add(a.id));
  let board = null;
  if (view) {
    try {
      board = game && game.draw ? game.draw(view, ui) : html`<${PlainView} view=${view} />`;
    } catch (error) {
      console.error(error);
      board = html`<${PlainView} view=${view} />`;
    }
  }
  // Legal actions the drawing did not place (the confirmation of a multi-step choice has its own button).
  const leftover = ui ? shown.legal.filter((a) => !ui.placed.has(a.id)
    && !(decision && decision.multi && a.id === decision.confirm)) : [];
  const me = seat !== null ? seatInfo[seat] : null;
  return html`
    <${Top} title=${info.title} rated=${info.rated} hints=${Boolean(info.settings.hints)}><${Connection} status=${status} /></${Top}>
    <main class="table-page">
      <section class="board" aria-label="The table">
        ${update.status === "waiting" && html`<${Waiting} info=${info} update=${update} />`}
        <div class="table-tools">
          <${RulesButton} open=${rulesOpen} onToggle=${() => setRulesOpen(!rulesOpen)} />
          <${SoundToggle} on=${sound} onToggle=${toggleSound} />
        </div>
        ${rulesOpen && html`<${RulesPanel} gameId=${info.game} glossary=${(game && game.glossary) || []}
          now=${nowLine(update, shown, seat, names)} />`}
        ${me && me.bot_playing && html`<p class="banner warn" role="status">A bot is playing your seat
          ${update.clocks.some((c) => c.seat === seat) ? "" : "while you are away"}; it is yours again as you act.</p>`}
        ${seat === null && html`<p class="banner" role="status">You are watching: you see what every player may see.</p>`}
        <${Prompt} update=${update} shown=${shown} seat=${seat} draft=${draft} busy=${busy} ui=${ui} names=${names}
          onUndo=${undo} onConfirm=${() => onAction(decision.confirm)}
          hints=${Boolean(info.settings.hints)} hint=${shownHint} hinting=${hinting} onHint=${askHint}
          words=${game && game.words} />
        ${ended && html`<${Ended} how=${ended} />`}
        ${notice && html`<p class="banner error" role="alert">${withNames(notice, names, seat)}</p>`}
        ${flash && html`<p class="banner warn flash" role="status">${withNames(flash, names, seat)}</p>`}
        ${live && update.status === "playing" && html`<${LiveBar} live=${live} update=${update} seat=${seat}
          instant=${instant} onAction=${onAction} game=${game} names=${names} hinted=${hinted} />`}
        <div class="game">${board}</div>
        ${leftover.length > 0 && html`<div class="actions" aria-label="Other moves">
          ${leftover.map((a) => html`<button type="button" class=${`btn playable${a.label === hinted ? " hinted" : ""}`} data-action=${a.label}
            disabled=${busy} onClick=${() => onAction(a.id)}>${a.label}</button>`)}</div>`}
        ${why && html`<p class="why" role="status">${why}</p>`}
        ${update.status === "finished" && html`<${Finished} info=${info} update=${update} seat=${seat} names=${names}
          identity=${identity} rematch=${rematch} />
          <${GameAnalysis} tableId=${info.id} names=${names} me=${seat} words=${game && game.words} />`}
      </section>
      <aside class="side">
        <${Seats} update=${update} seat=${seat} />
        <${ScoreSheet} view=${update.view} names=${names} />
        ${info.settings.chat !== false && html`<${Chat} lines=${chat} seat=${seat} send=${send} />`}
        <${Log} events=${events} names=${names} me=${seat} words=${game && game.words} />
      </aside>
    </main>`;
}

// On a phone, once it becomes the seat's move: the playable part of the hand scrolled into view if it is not.
function handIntoView() {
  if (window.innerWidth > 760) return;
  requestAnimationFrame(() => {
    const playable = document.querySelector(".game .area.mine .playable");
    if (!playable) return;
    const box = playable.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) playable.scrollIntoView({ block: "center" });
  });
}

// The hinted card or button scrolled into view if it is off the screen (a phone's hand may be below the prompt).
function hintedIntoView() {
  requestAnimationFrame(() => {
    const marked = document.querySelector(".hinted");
    if (!marked) return;
    const box = marked.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) marked.scrollIntoView({ block: "center" });
  });
}

// A live table: the count before the held choices are played, the time left in the step (in the game's words),
// who has chosen, and the instant actions (first come), drawn by the game's `InstantActions` when it has one.
function LiveBar({ live, update, seat, instant, onAction, game, names, hinted }) {
  const waiting = update.view.to_move.filter((s) => !live.chosen.includes(s));
  const Instant = (game && game.InstantActions) || InstantActions;
  return html`<div class="livebar" aria-label="Live play">
    ${live.count !== null ? html`<${Countdown} seconds=${live.count} word=${live.count_word} key=${`c${update.version}`} />`
      : live.ends !== null && html`<span class="stat">${live.clock}
        <${Clock} seconds=${live.ends} key=${`e${update.version}-${live.held}`} /></span>`}
    ${live.held && html`<span class="stat">${live.chosen.length} of ${update.view.players} have chosen${waiting.length
      ? `; waiting for ${waiting.map((s) => (s === seat ? "you" : names[s])).join(", ")}` : ""}</span>`}
    ${live.mine && ((live.timed_out || []).includes(seat)
      ? html`<span class="stat chosen">Time is up: the bot chose <b>${live.mine.label}</b> for you (click another card to change)</span>`
      : html`<span class="stat chosen">You chose <b>${live.mine.label}</b> (click another card to change)</span>`)}
    <span class="instant">${instant.length > 0 && html`<${Instant} actions=${instant} onAction=${onAction} html=${html} hinted=${hinted} />`}</span>
  </div>`;
}

// Instant actions of a game that draws none of its own: a button each.
function InstantActions({ actions, onAction, hinted }) {
  return actions.map((a) => html`<button type="button" class=${`btn instant-btn playable${a.label === hinted ? " hinted" : ""}`} data-action=${a.label}
    onClick=${() => onAction(a.id)}>${a.label}</button>`);
}

function Countdown({ seconds, word }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const end = Date.now() + seconds * 1000;
    const timer = setInterval(() => setLeft(Math.max(0, (end - Date.now()) / 1000)), 100);
    return () => clearInterval(timer);
  }, [seconds]);
  const shown = left > 0.05 ? String(Math.ceil(left)) : word;
  return html`<strong class="countdown" role="timer" aria-live="assertive">${shown}</strong>`;
}

// Table talk in words, read by everybody at the table (spectators too); only the seated players write.
function Chat({ lines, seat, send }) {
  const [text, setText] = useState("");
  const end = useRef(null);
  useEffect(() => { if (end.current) end.current.scrollTop = end.current.scrollHeight; }, [lines.length]);
  function say(event) {
    event.preventDefault();
    if (text.trim() && send({ type: "say", text: text.trim().slice(0, 200) })) setText("");
  }
  return html`<section class="panel chat"><h2>Table talk</h2>
    <ol class="log" ref=${end} aria-live="polite">${lines.map((l) => html`<li><b>${l.seat === seat ? "You" : l.name}:</b> ${l.text}</li>`)}</ol>
    ${seat !== null && html`<form onSubmit=${say} class="chat-form">
      <input aria-label="Say something to the table" maxlength="200" value=${text}
        onInput=${(e) => setText(e.target.value)} placeholder="Say something" />
      <button class="btn" type="submit">Say</button></form>`}</section>`;
}

function Connection({ status }) {
  if (status === "open") return html`<span class="conn ok" role="status">connected</span>`;
  if (status === "ended") return html`<span class="conn bad" role="status">disconnected</span>`;
  return html`<span class="conn bad" role="status">${status === "reconnecting" ? "reconnecting…" : "connecting…"}</span>`;
}

function Waiting({ info, update }) {
  const open = update.seats.filter((s) => s.kind === "open").length;
  const watch = `${location.origin}${tableHref(info.id)}/watch`;
  return html`<div class="banner invite">
    <p>Waiting for ${open} more player${open > 1 ? "s" : ""}. Send this link to your friends:</p>
    <${LinkRow} label="Invite link" url=${info.invite_url} />
    ${info.settings.public && html`<p>Spectators watch with this one:</p>
      <${LinkRow} label="Spectator link" url=${watch} />`}</div>`;
}

// A link to hand on: shown in full, selected on focus, with a copy button.
function LinkRow({ label, url }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try { await navigator.clipboard.writeText(url); setCopied(true); } catch { setCopied(false); }
  }
  return html`<p class="invite-row"><input readonly aria-label=${label} value=${url}
      onFocus=${(e) => e.target.select()} />
    <button type="button" class="btn" onClick=${copy} title=${`Copy the ${label.toLowerCase()}`}>${copied ? "Copied" : "Copy link"}</button></p>`;
}

function Prompt({ update, shown, seat, draft, busy, onUndo, onConfirm, names, hints, hint, hinting, onHint, words }) {
  if (seat === null || update.status !== "playing") return null;
  const decision = shown.decision;
  if (!decision) {
    const waiting = update.view.to_move.map((s) => names[s]).join(", ");
    return html`<p class="prompt" role="status">Waiting for ${waiting}…</p>`;
  }
  const confirmable = decision.multi && shown.legal.some((a) => a.id === decision.confirm);
  const confirmLabel = decision.multi && (shown.legal.find((a) => a.id === decision.confirm) || {}).label;
  return html`<div class="prompt mine" role="status">
    <strong>Your move:</strong> ${decision.prompt}
    ${hints && html`<button type="button" class="btn hint-btn" onClick=${onHint} disabled=${hinting}
      title="The move the table's bot would make for you now, from what you know">${hinting ? "Thinking…" : "Hint"}</button>`}
    ${hint && html`<span class="hint-text">Hint: play <b>${withNames(hint.label, names, seat, words)}</b></span>`}
    ${decision.multi && html`<span class="draft">
      <button type="button" class="btn" onClick=${onUndo} disabled=${!draft.length || busy}>Undo</button>
      <button type="button" class="btn primary" onClick=${onConfirm} disabled=${!confirmable || busy}>
        Confirm${confirmLabel ? ` (${confirmLabel})` : ""}</button></span>`}
    ${update.clocks.filter((c) => c.seat === seat).map((c) => html`<${Clock} seconds=${c.seconds} key=${update.version} />`)}
  </div>`;
}

function Clock({ seconds }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const end = Date.now() + seconds * 1000;
    const timer = setInterval(() => setLeft(Math.max(0, (end - Date.now()) / 1000)), 250);
    return () => clearInterval(timer);
  }, [seconds]);
  return html`<span class=${`clock${left < 10 ? " low" : ""}`}>${Math.ceil(left)} s</span>`;
}

function Seats({ update, seat }) {
  const view = update.view;
  return html`<section class="panel seats" aria-label="Players"><h2>Players</h2><ol>
    ${update.seats.map((s, i) => {
      const turn = view && view.to_move.includes(i);
      const clock = update.clocks.find((c) => c.seat === i);
      return html`<li class=${`${turn ? "turn" : ""}${i === seat ? " me" : ""}`}>
        <span class=${`dot ${s.connected ? "on" : "off"}`} title=${s.connected ? "connected" : "away"}></span>
        <span class="who"><${SeatWho} seatInfo=${s} index=${i} me=${seat} /></span>
        ${s.bot_playing && s.kind === "person" && html`<span class="badge">bot playing</span>`}
        ${turn && html`<span class="badge turn">to move</span>`}
        ${clock && html`<${Clock} seconds=${clock.seconds} key=${`${update.version}-${i}`} />`}
        ${view && html`<span class="score">${view.scores[i]}</span>`}</li>`;
    })}</ol></section>`;
}

// The score sheet, short however long the game: beyond a few lines, the earlier ones are folded away.
const SHEET_SHOWN = 4;

export function ScoreSheet({ view, names }) {
  if (!view || !view.score_sheet.length) return null;
  const lines = view.score_sheet;
  const folded = lines.length > SHEET_SHOWN + 1 ? lines.slice(0, -SHEET_SHOWN) : [];
  const head = html`<thead><tr><th></th>${view.scores.map((_, i) => html`<th title=${names[i]}>${short(names[i])}</th>`)}</tr></thead>`;
  const rows = (part) => part.map((line) => html`<tr><th>${withNames(line.label, names, null)}</th>
      ${line.points.map((p) => html`<td>${p}</td>`)}</tr>`);
  return html`<section class="panel"><h2>Score sheet</h2>
    ${folded.length > 0 && html`<details class="sheet-earlier"><summary>${folded.length} earlier lines</summary>
      <div class="scroll"><table class="sheet">${head}<tbody>${rows(folded)}</tbody></table></div></details>`}
    <div class="scroll"><table class="sheet">${head}
    <tbody>${rows(lines.slice(folded.length))}</tbody>
    <tfoot><tr><th>Total</th>${view.scores.map((t) => html`<td>${t}</td>`)}</tr></tfoot></table></div></section>`;
}

// A name short enough for a column of the score sheet.
function short(name) {
  return name.length > 8 ? `${name.slice(0, 7)}…` : name;
}

// The log in words: the players' names for "Player N", the game's card words.
export function Log({ events, names, me, words }) {
  const end = useRef(null);
  useEffect(() => { if (end.current) end.current.scrollTop = end.current.scrollHeight; }, [events.length]);
  return html`<section class="panel"><h2>What happened</h2>
    <ol class="log" ref=${end} aria-live="polite">${events.slice(-200).map((e) => html`<li class=${`ev-${e.kind}`}>
      ${withNames(e.text, names, me, words)}</li>`)}</ol>
  </section>`;
}

// A seat in the players' list: an account's name links to their page, a guest says so, an open seat may be kept
// for someone (after a "Play again").
function SeatWho({ seatInfo, index, me }) {
  const base = `Player ${index + 1}`;
  if (index === me || !seatInfo) return seatLabel(seatInfo, index, me);
  if (seatInfo.kind === "person" && seatInfo.account) {
    return html`${base} · <a href=${personHref(seatInfo.account)}>${seatInfo.name || seatInfo.account}</a>`;
  }
  if (seatInfo.kind === "person") return html`${base} · ${seatInfo.name} <span class="muted">(guest)</span>`;
  if (seatInfo.kind === "open" && seatInfo.offered) return html`${base} · open, kept for ${seatInfo.offered}`;
  return seatLabel(seatInfo, index, me);
}

// "Play again" at a finished table: a new table of the same game, seats moved round by one; when one was made
// already, the same request seats the caller there.
function PlayAgain({ info, seat, identity, rematch }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  if (seat === null) {
    return rematch ? html`<a class="btn" href=${`${tableHref(rematch)}/watch`}>Watch the rematch</a>` : null;
  }
  async function again() {
    setBusy(true);
    setError("");
    const guest = identity && !identity.account && identity.token;
    try {
      const made = await api(`/api/tables/${encodeURIComponent(info.id)}/rematch`, {
        method: "POST", headers: guest ? { authorization: `Bearer ${identity.token}` } : {} });
      if (guest) seats.set(made.table.id, made.seat, made.token, identity.name);
      location.href = tableHref(made.table.id);
    } catch (e) { setError(e.message); setBusy(false); }
  }
  return html`${rematch ? html`<button type="button" class="btn primary" disabled=${busy} onClick=${again}>A rematch is waiting: join it</button>`
    : html`<button type="button" class="btn primary" disabled=${busy} onClick=${again}>Play again</button>`}
    ${error && html`<span class="error" role="alert">${error}</span>`}`;
}

function Finished({ info, update, seat, identity, rematch, names }) {
  const view = update.view;
  const winners = view.winners.map((w) => names[w]);
  return html`<div class="banner done" role="status">
    <p><strong>Game over.</strong> ${winners.length > 1 ? "Winners" : "Winner"}: ${winners.join(", ")}.
      Final scores: ${view.scores.map((s, i) => `${i === seat ? "you" : names[i]} ${s}`).join(", ")}.</p>
    <p class="links">
      <${PlayAgain} info=${info} seat=${seat} identity=${identity} rematch=${rematch} />
      <${RecordLink} info=${info} />
      <a class="btn" href=${`/t/${info.id}/replay${seat === null ? "" : `?seat=${seat}`}`}>Replay the game</a>
      <a class="btn" href="/">New table</a></p></div>`;
}

export function PlainView({ view }) {
  const facts = Object.entries(view).filter(([k, v]) => v === null || typeof v !== "object");
  return html`<dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${String(v)}</dd>`)}</dl>`;
}

