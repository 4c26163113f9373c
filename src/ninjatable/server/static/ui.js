// Shared pieces of the pages: htm bound to Preact, the HTTP helpers, seat names, and the `ui` object a game's
// drawing (games/<id>/web.js) receives to draw cards and the controls of legal actions.
import { h } from "preact";
import htm from "htm";

export const html = htm.bind(h);

// A JSON request to the server; an error carries the server's message, its `code` and the HTTP `status`.
export async function api(path, options = {}) {
  const init = { ...options, headers: { "content-type": "application/json", ...(options.headers || {}) } };
  if (init.body !== undefined && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const answer = await fetch(path, init);
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const error = new Error(body.error || `${answer.status} ${answer.statusText}`);
    error.code = body.code || "";
    error.status = answer.status;
    throw error;
  }
  return body;
}

// Seat tokens are kept in the browser, per table, so that a reload or a later visit reconnects the seat.
export const seats = {
  get(tableId) {
    try { return JSON.parse(localStorage.getItem(`ninjatable:${tableId}`)); } catch { return null; }
  },
  set(tableId, seat, token, name) {
    localStorage.setItem(`ninjatable:${tableId}`, JSON.stringify({ seat, token, name }));
  },
  forget(tableId) { localStorage.removeItem(`ninjatable:${tableId}`); },
};

// What lets this browser read a private table's finished game: a guest's seat token (an account's session cookie
// goes with every request by itself).
export function readerHeaders(tableId) {
  const held = seats.get(tableId);
  return held && held.token ? { authorization: `Bearer ${held.token}` } : {};
}

// The record of a finished game, as a file: fetched with what lets this browser read it, then saved.
export function RecordLink({ info }) {
  async function download() {
    const record = await api(`/api/tables/${encodeURIComponent(info.id)}/record`, { headers: readerHeaders(info.id) });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
    link.download = `${info.game}-${info.id}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
  return html`<button type="button" class="btn" onClick=${download}>Download the record</button>`;
}

export function seatLabel(seatInfo, index, me) {
  const base = `Player ${index + 1}`;
  if (index === me) return `${base} (you)`;
  if (!seatInfo) return base;
  if (seatInfo.kind === "person") return `${base} · ${seatInfo.name}`;
  if (seatInfo.kind === "bot") return `${base} · bot (${seatInfo.bot})`;
  return `${base} · open`;
}

const gameModules = {};

// A game's drawing module, loaded once from the game's own folder; null if it has none (the page then draws
// the view as a list of facts and every legal action as a button).
export async function loadGame(gameId) {
  if (!(gameId in gameModules)) {
    gameModules[gameId] = import(`/games/${gameId}/web.js`).then((module) => {
      if (module.css && !document.getElementById(`css-${gameId}`)) {
        const style = document.createElement("style");
        style.id = `css-${gameId}`;
        style.textContent = module.css;
        document.head.appendChild(style);
      }
      return module;
    }).catch((error) => { console.warn(`no drawing for ${gameId}:`, error); return null; });
  }
  return gameModules[gameId];
}

// The `ui` a game's draw(view, ui) receives. `action(label)` gives the props that make an element play the legal
// action of that label (or grey it out with the kernel's reason); every action drawn so is marked as placed,
// and the page adds a plain button for each legal action the drawing did not place.
// `events`: the log the page holds (for `lastTrick`); `names`: each seat's name as the page says it;
// `onRefused(label, reason)`: a greyed control was tapped (the page shows the reason); `hinted`: the label of the
// action a hint suggests (its control is marked).
export function makeUi({ view, legal, refused, decision, me, seatInfo, onAction, busy, live = null, events = [],
                         names = null, onRefused = null, hinted = null }) {
  const byLabel = new Map(legal.map((a) => [a.label, a.id]));
  const reasons = new Map(refused.map((r) => [r.label, r.reason]));
  const placed = new Set();
  const ui = {
    html,
    me,
    view,
    players: view ? view.players : 0,
    decision,
    legal,
    live,
    placed,
    can: (label) => byLabel.has(label),
    seatName: (s) => seatLabel(seatInfo && seatInfo[s], s, me),
    shortName: (s) => (names ? names[s] : s === me ? "You" : (seatInfo && seatInfo[s] && seatInfo[s].kind === "person"
      ? seatInfo[s].name : `Player ${s + 1}`)),
    lastTrick: () => lastTrickOf(events, view ? view.players : 0),
    // The last completed trick, shown until the next card is played: each card (drawn by the game's `card(label)`)
    // with its player, the winner's marked; the cards gather towards the winner (style.css: .trick-collect).
    lastTrickArea(last, card, played = "played") {
      const at = last.cards.findIndex(([s]) => s === last.winner);
      return html`<div class="last-trick" aria-label="The last trick">
        <div class="stat">Last trick: <b>${ui.shortName(last.winner)}</b> ${last.winner === me ? "win" : "wins"} it</div>
        <div class="row trick-collect">${last.cards.map(([s, label], i) => html`<span key=${`last-${label}`}
          class=${`${played}${s === last.winner ? " won" : ""}`} style=${`--shift: ${at - i}`}>
          ${card(label)}<span class="stat">${ui.shortName(s)}${s === last.winner ? " · won" : ""}</span></span>`)}</div>
      </div>`;
    },
    // Props for a control of the action with this label: clickable when legal, greyed with a reason if not.
    action(label, title) {
      const id = byLabel.get(label);
      if (id !== undefined) {
        placed.add(id);
        return { onClick: () => onAction(id), disabled: busy, title: title || label, "data-action": label,
                 class: label === hinted ? "playable hinted" : "playable" };
      }
      const reason = reasons.get(label);
      if (reason && onRefused) {  // focusable and tappable, so that a touch screen can tell why
        return { "aria-disabled": "true", title: reason, "data-action": label, class: "unplayable",
                 onClick: () => onRefused(label, reason) };
      }
      return { disabled: true, title: reason || title || "", "data-action": label, class: "unplayable" };
    },
    // A card: `text` large on a face of `colour` (a name from style.css: purple, red, blue, green, yellow, grey,
    // ...); with `action`, a button playing that action's label.
    // `sub` is a small caption under the text (a colour's name, so that colour is never the only sign).
    card(text, { colour = "grey", action = null, small = false, back = false, note = "", sub = "", name = "", key } = {}) {
      const classes = `card c-${colour}${small ? " small" : ""}${back ? " back" : ""}`;
      const face = back ? "" : html`${text}${sub && html`<small>${sub}</small>`}`;
      const spoken = name || `${text}${sub ? ` ${sub}` : ""}`;
      if (action === null) {
        return html`<span key=${key} class=${classes} title=${note || spoken} role="img"
          aria-label=${back ? "a face-down card" : spoken}>${face}</span>`;
      }
      const props = ui.action(action, note);
      return html`<button key=${key} type="button" ...${props} class=${`${classes} ${props.class}`}
        aria-label=${`${spoken}${props.class === "unplayable" ? ` (${props.title || "not playable now"})` : ""}`}>${face}</button>`;
    },
    button(label, text, extra = {}) {
      const props = ui.action(label);
      return html`<button type="button" ...${props} class=${`btn ${props.class}`} ...${extra}>${text || label}</button>`;
    },
  };
  return ui;
}

// The last completed trick of a trick game, read from its log (every card played there is public): the cards of
// the latest "Player N wins the trick" with the seat that played each ("Player N plays X"), in the order played,
// and the winner; null before the first trick ends or once a card of the next trick is played.
export function lastTrickOf(events, players) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i];
    if (event.kind === "play") return null;
    const won = event.kind === "trick" && event.text.match(/^Player (\d+) wins the trick/);
    if (!won) continue;
    const cards = [];
    for (let j = i - 1; j >= 0 && cards.length < players; j -= 1) {
      const played = events[j].kind === "play" && events[j].text.match(/^Player (\d+) plays (\S+)$/);
      if (played) cards.unshift([Number(played[1]) - 1, played[2]]);
    }
    return cards.length === players ? { winner: Number(won[1]) - 1, cards } : null;
  }
  return null;
}
