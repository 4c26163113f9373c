// Ninjaaa'Tack drawn for the browser from one seat's view (the terminal's twin is render.py): the seats around
// the table with their teams and latest gestures, your hand by family (click a card to pass it), the gestures you
// may make, and the last call at the gong. At a live table the gong's calls are `InstantActions`, which the page
// shows in its live bar; elsewhere they are plain buttons.

import { useEffect } from "preact/hooks";

// Each family's look: an animal and a card colour (the terminal's colours, as near as the page's palette goes).
const FAMILIES = {
  Fox: ["🦊", "orange"], Crane: ["🐦", "white"], Tiger: ["🐯", "yellow"], Dragon: ["🐉", "red"],
  Snake: ["🐍", "green"], Monkey: ["🐒", "purple"], Owl: ["🦉", "teal"], Bear: ["🐻", "blue"],
};

// The table talk: each gesture with a picture; silence last.
const GESTURES = [
  ["nod", "🙂"], ["wink", "😉"], ["thumbs-up", "👍"], ["thumbs-down", "👎"], ["tap-nose", "👃"],
  ["scratch-head", "🤔"], ["raise-eyebrows", "🤨"], ["point-up", "☝️"], ["fist", "✊"], ["open-palm", "🖐️"],
  ["touch-ear", "👂"], ["shrug", "🤷"],
];
const PICTURE = Object.fromEntries(GESTURES);

// What the page shows, for the Rules panel.
export const glossary = [
  ...Object.entries(FAMILIES).map(([name, [animal]]) => [`${animal} ${name}`, `a card of the ${name} family`]),
  ["clan", "all 4 cards of one family between two partners' hands (a lone wolf: 3 in its own hand)"],
  ["🔔 gong", "tap it to call: Ninjaaa! when your team holds a clan, Attack! when another team does"],
  ["Ninjaaa!", "a call at the gong: my team holds a whole clan"],
  ["Attack!", "a call at the gong: another team holds a whole clan"],
  ["N, A keys", "at a live table, the keys that tap the gong with Ninjaaa! and Attack!"],
  ["🐺 lone wolf", "with an odd number of players, one plays alone each round"],
  ["your teammate", "your partner this round, facing you; the coloured ring marks your team"],
  ["Penalty", "must hold a whole clan alone to call Ninjaaa!"],
  ["pt", "points: the first team (or player) to the target wins"],
  ["✓ card chosen", "the player has chosen the card to pass"],
  ["to pass", "the card you chose to pass (you may change it until the count ends)"],
  ["new", "the card you received at the last pass"],
  ["↻", "cards pass to the left"],
  ["gestures", "table talk everyone sees; 🤐 is silence; \"= Fox\" is what a gesture means in your partnership's code"],
];

// Team colours, in the order of view.teams (at most four teams: eight players, or a lone wolf and three pairs).
const TEAM_COLOURS = ["#1a5fb4", "#c62828", "#2e7d32", "#8e44ad"];

function family(name) {
  return FAMILIES[name] || [name ? name[0] : "?", "grey"];
}

function familyCard(ui, name, extra = {}) {
  const [animal, colour] = family(name);
  return ui.card(animal, { colour, sub: name, name, ...extra });
}

// A call in words: "Ninjaaa!", "Attack!", or an Attack! aimed at one team ("attack Player 2": that seat's team).
function callWords(label, target) {
  if (!label) return "";
  if (label === "ninjaaa") return "Ninjaaa!";
  if (label.startsWith("attack")) {
    if (label.length <= 6) return "Attack!";
    return `Attack! on ${typeof target === "string" && target ? target : `${label.slice(7)}'s team`}`;
  }
  return label;
}

// "2x Fox, 1x Tiger" (how a revealed hand is written in the view) as [["Fox", 2], ["Tiger", 1]].
function parseCounts(text) {
  if (typeof text !== "string") return [];
  return text.split(", ").map((part) => part.match(/^(\d+)x (.+)$/)).filter(Boolean)
    .map((m) => [m[2], Number(m[1])]);
}

function seatOf(name) {
  const m = typeof name === "string" && name.match(/Player (\d+)/);
  return m ? Number(m[1]) - 1 : null;
}

function teamIndexOf(view, seat) {
  return (view.teams || []).findIndex((t) => (t.seats || []).includes(seat));
}

// What each seat is doing in this step: chosen its card (at a live table, only that it chose), or gestured.
function stepMark(view, ui, s) {
  const live = ui.live;
  const deciding = (view.to_move || []).includes(s);
  if (view.over) return null;
  if (view.step === "pass") {
    const chose = live && live.held ? (live.chosen || []).includes(s) : !deciding;
    if (chose && live && (live.timed_out || []).includes(s)) return ["chosen bot", "✓ time up: the bot chose"];
    return chose ? ["chosen", "✓ card chosen"] : ["choosing", "choosing a card…"];
  }
  return deciding ? ["choosing", "may gesture…"] : ["chosen", "✓ done"];
}

// The latest gesture of each seat this round: {seat: {pass, signal}}.
function latestGestures(view) {
  const latest = {};
  for (const g of view.signals || []) latest[g.seat] = g;
  return latest;
}

function seatBox(view, ui, s, gestures) {
  const { html } = ui;
  const me = ui.me;
  const ti = teamIndexOf(view, s);
  const team = ti >= 0 ? view.teams[ti] : null;
  const mine = me !== null && me !== undefined;
  const mate = mine && s !== me && team && team.seats.includes(me);
  const lone = team && (team.lone_wolf || team.seats.length === 1);
  const mark = stepMark(view, ui, s);
  const g = gestures[s];
  const fresh = g && g.pass === view.passes;
  const penalised = (view.penalised || []).includes(s);
  const classes = ["nt-seat", s === me ? "me" : "", mate ? "mate" : "", lone ? "lone" : "",
                   mark && mark[0] === "choosing" ? "turn" : ""].filter(Boolean).join(" ");
  return html`<div class=${classes} style=${`--team: ${TEAM_COLOURS[ti] || "#5f6368"}`} data-seat=${s}>
    <div class="nt-name">${s === me ? "You" : ui.shortName(s)}${ui.shortName(s) === `Player ${s + 1}` ? ""
      : html` <span class="nt-num">P${s + 1}</span>`}</div>
    <div class="nt-tags">
      ${mate && html`<span class="nt-tag mate">your teammate</span>`}
      ${lone && html`<span class="nt-tag lone">🐺 lone wolf</span>`}
      ${penalised && html`<span class="nt-tag pen" title="must hold a whole clan alone to call Ninjaaa!">Penalty</span>`}
      <span class="nt-tag pts" title="points">${(view.scores || [])[s] ?? 0} pt</span>
    </div>
    ${mark && html`<div class=${`nt-mark ${mark[0]}`}>${mark[1]}</div>`}
    ${g ? html`<div key=${`${view.round}-${g.pass}-${g.signal}`} class=${`nt-bubble${fresh ? " fresh" : " old"}`}
        title=${`${ui.shortName(s)}'s latest gesture, after pass ${g.pass}`}>
        <span class="em">${PICTURE[g.signal] || "✋"}</span> ${g.signal}${fresh ? "" : html` <small>(pass ${g.pass})</small>`}</div>`
      : html`<div class="nt-bubble none">no gesture yet</div>`}
  </div>`;
}

// The seats around the table, you at the bottom; cards go to the left, which is clockwise seen from above.
function ring(view, ui) {
  const { html } = ui;
  const n = view.players;
  const me = ui.me ?? 0;
  const gestures = latestGestures(view);
  const seats = Array.from({ length: n }, (_, i) => (me + i) % n);
  return html`<div class="nt-ring" style=${`--n: ${n}`}>
    ${seats.map((s, i) => {
      const angle = Math.PI / 2 + (2 * Math.PI * i) / n;
      const x = 50 + 40 * Math.cos(angle);
      const y = 50 + 38 * Math.sin(angle);
      return html`<div class="nt-place" key=${s} style=${`left: ${x.toFixed(1)}%; top: ${y.toFixed(1)}%`}>
        ${seatBox(view, ui, s, gestures)}</div>`;
    })}
    <div class="nt-centre">
      <div class="nt-gong" aria-hidden="true">🔔</div>
      <div><b>Round ${view.round}</b> · pass ${view.passes}${view.max_passes ? ` of at most ${view.max_passes}` : ""}</div>
      <div class="stat">${view.over ? "The game is over" : view.step === "pass" ? "Everyone chooses a card to pass"
        : "Table talk: gestures, seen by all"}</div>
      <div class="stat">Cards pass to the left ↻</div>
    </div>
  </div>`;
}

function teamsStrip(view, ui) {
  const { html } = ui;
  const next = view.penalised_next_round || [];
  return html`<div class="nt-teams" aria-label="Teams">
    ${(view.teams || []).map((t, ti) => {
      const seats = t.seats || [];
      const you = seats.includes(ui.me);
      const who = seats.map((s) => ui.shortName(s)).join(" + ");
      const points = t.score !== null && t.score !== undefined ? `${t.score}`
        : seats.map((s) => `${ui.shortName(s)} ${(view.scores || [])[s] ?? 0}`).join(", ");
      return html`<span class=${`nt-team${you ? " yours" : ""}`} style=${`--team: ${TEAM_COLOURS[ti] || "#5f6368"}`}>
        <b>${t.lone_wolf ? "🐺 " : ""}${who}</b>${you ? " (your team)" : ""} · ${points} pt
        ${t.penalised && html` · <span class="nt-tag pen">Penalty this round</span>`}
        ${seats.some((s) => next.includes(s)) && html` · <span class="nt-tag pen">Penalty next round</span>`}</span>`;
    })}
    <span class="stat">First to <b>${view.points_to_win}</b> point${view.points_to_win === 1 ? "" : "s"}${
      view.individual_scores ? " (each player scores alone)" : ""}</span>
  </div>`;
}

// Your hand: a card per copy, by family; in a pass step each card passes its family. The card you chose to pass
// is lifted; the card you received at the last pass is marked new.
function myHand(view, ui) {
  const { html } = ui;
  const hand = view.hand && typeof view.hand === "object" ? view.hand : {};
  const order = [...(view.families || []), ...Object.keys(hand).filter((f) => !(view.families || []).includes(f))];
  const chosenLabel = (ui.live && ui.live.mine && ui.live.mine.label) || view.my_choice || null;
  const passes = Array.isArray(view.my_passes) ? view.my_passes : [];
  const last = passes.length ? passes[passes.length - 1] : null;
  const received = last && view.step === "signal" ? last.received : null;
  let chosenDone = false;
  let newDone = false;
  const cards = [];
  for (const f of order) {
    for (let k = 0; k < (hand[f] || 0); k += 1) {
      const label = `pass ${f}`;
      const passable = view.step === "pass" && ui.can(label);
      const chosen = !chosenDone && chosenLabel === label;
      const isNew = !newDone && received === f && k === (hand[f] || 0) - 1;
      chosenDone = chosenDone || chosen;
      newDone = newDone || isNew;
      cards.push(html`<span key=${`${f}${k}`} data-family=${f} class=${`nt-slot${chosen ? " chosen" : ""}${isNew ? " new" : ""}`}>
        ${familyCard(ui, f, passable ? { action: label, note: `pass ${f} to ${ui.shortName((ui.me + 1) % view.players)}` } : {})}
        ${chosen ? html`<span class="nt-flag">to pass</span>` : isNew ? html`<span class="nt-flag">new</span>` : ""}</span>`);
    }
  }
  const left = ui.shortName((ui.me + 1) % view.players);
  return html`<div class=${`area mine nt-hand${view.step === "pass" && (view.to_move || []).includes(ui.me) ? " turn" : ""}`}>
    <h3>Your hand${view.step === "pass" && !view.over ? ` · click a card to pass it to ${left}` : ""}</h3>
    <div class="row">${cards}</div>
    ${last && html`<div class="stat">At pass ${passes.length} you passed <b>${last.passed}</b> and received${" "}
      <b>${last.received}</b>.</div>`}
  </div>`;
}

function gestureRow(view, ui) {
  const { html } = ui;
  const code = view.codebook && typeof view.codebook === "object" ? view.codebook : null;
  const open = view.step === "signal" && !view.over;
  const made = open && (view.signals || []).find((g) => g.seat === ui.me && g.pass === view.passes);
  const talking = open && (view.to_move || []).includes(ui.me);
  return html`<div class=${`area nt-talk${talking ? " turn" : ""}`}>
    <h3>${talking ? "Make a gesture: everybody sees it at once" : made ? `You made: ${made.signal}`
      : open ? "Table talk" : "Gestures (after each pass)"}</h3>
    <div class="nt-gestures">
      ${GESTURES.map(([name, picture]) => {
        const props = ui.action(`signal ${name}`, name);
        return html`<button type="button" ...${props} class=${`nt-gesture ${props.class}${made && made.signal === name ? " made" : ""}`}>
          <span class="em" aria-hidden="true">${picture}</span><span>${name}</span>
          ${code && code[name] && html`<small title="what it means in your partnership's code">= ${code[name]}</small>`}
        </button>`;
      })}
      ${(() => {
        const props = ui.action("silence", "stay silent");
        return html`<button type="button" ...${props} class=${`nt-gesture ${props.class}`}>
          <span class="em" aria-hidden="true">🤐</span><span>silence</span></button>`;
      })()}
    </div>
    ${code && html`<div class="stat">Your partnership's code (hidden from the others): ${Object.entries(code)
      .map(([g, f]) => `${g} = ${f}`).join(", ")}</div>`}
  </div>`;
}

function lastCall(view, ui) {
  const { html } = ui;
  const call = view.last_call;
  if (!call || typeof call !== "object") return null;
  const caller = typeof call.caller === "number" ? ui.shortName(call.caller) : "Someone";
  const points = Number(call.points) || 0;
  const penalty = !call.correct && (view.penalised || []).includes(call.caller);
  const result = call.correct ? `right: +${points} point${points === 1 ? "" : "s"}`
    : penalty ? "wrong, with no point to lose: the Penalty this round" : "wrong: a point lost";
  return html`<div class=${`area nt-call ${call.correct ? "right" : "wrong"}`}>
    <h3>Last call at the gong</h3>
    <div><b>${caller}</b> tapped the gong: <b>${callWords(call.call, call.target)}</b>
      <span class="nt-verdict">${call.correct ? "✔" : "✘"} ${result}</span></div>
    <div class="row nt-revealed">${Object.entries(call.revealed || {}).map(([who, text]) => {
      const s = seatOf(who);
      const counts = parseCounts(text);
      return html`<span class="nt-reveal"><span class="stat">${s === null ? who : ui.shortName(s)}:</span>
        ${counts.length ? counts.flatMap(([f, c]) => Array.from({ length: c }, (_, k) => familyCard(ui, f, { small: true, key: `${f}${k}` })))
          : html`<span class="stat">${String(text)}</span>`}</span>`;
    })}</div>
  </div>`;
}

export function draw(view, ui) {
  const { html } = ui;
  const seated = ui.me !== null && ui.me !== undefined;
  return html`<div class="nt-table" data-round=${view.round} data-passes=${view.passes} data-step=${view.step}
    data-families=${(view.families || []).join(" ")}>
    ${teamsStrip(view, ui)}
    ${ring(view, ui)}
    ${seated && view.hand && myHand(view, ui)}
    ${seated && !view.over && gestureRow(view, ui)}
    ${lastCall(view, ui)}
  </div>`;
}

// The gong at a live table: a button per call, each answering to a key, the first letter of the call (N for
// ninjaaa, A for attack; a letter two calls share is no key).
export function InstantActions({ actions, onAction, html }) {
  const keys = hotkeys(actions);
  useEffect(() => {
    function onKey(event) {
      if (event.target && ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName)) return;
      const action = keys.get(event.key.toLowerCase());
      if (action !== undefined && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        onAction(action.id);
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  return actions.map((a) => {
    const key = [...keys.entries()].find(([, b]) => b.id === a.id);
    return html`<button type="button" class="btn instant-btn gong-btn playable" data-action=${a.label}
      aria-keyshortcuts=${key ? key[0].toUpperCase() : undefined} onClick=${() => onAction(a.id)}>
      Gong: ${a.label}${key ? html` <kbd>${key[0].toUpperCase()}</kbd>` : ""}</button>`;
  });
}

function hotkeys(actions) {
  const byLetter = new Map();
  for (const a of actions) {
    const letter = a.label[0].toLowerCase();
    byLetter.set(letter, byLetter.has(letter) ? null : a);
  }
  return new Map([...byLetter].filter(([, a]) => a !== null));
}

export const css = `
.nt-table { display: grid; gap: .7rem; }
.nt-teams { display: flex; flex-wrap: wrap; gap: .4rem .8rem; align-items: center; }
.nt-team { border-left: .35rem solid var(--team); background: #fff; border-radius: .4rem; padding: .2rem .6rem;
  font-size: .9rem; border-top: 1px solid var(--line); border-right: 1px solid var(--line); border-bottom: 1px solid var(--line); }
.nt-team.yours { box-shadow: 0 0 0 2px var(--team) inset; }
.nt-ring { position: relative; height: 23rem; border-radius: 50%; background: radial-gradient(ellipse at center, #efe6d6 0%, #e4d6bd 65%, #f6f3ee 66%); }
.nt-place { position: absolute; transform: translate(-50%, -50%); width: 10.5rem; z-index: 1; }
.nt-centre { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); text-align: center; width: 16rem; font-size: .9rem; }
.nt-gong { font-size: 2rem; line-height: 1; }
.nt-seat { background: #fff; border: 2px solid var(--line); border-top: .35rem solid var(--team); border-radius: .55rem;
  padding: .35rem .5rem; font-size: .85rem; display: grid; gap: .2rem; }
.nt-seat.me { border-color: var(--focus); border-top-color: var(--team); }
.nt-seat.mate { box-shadow: 0 0 0 3px var(--team); }
.nt-seat.turn { background: #f3f7fd; }
.nt-name { font-weight: 700; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.nt-num { color: var(--muted); font-weight: 500; font-size: .75rem; }
.nt-tags { display: flex; flex-wrap: wrap; gap: .2rem; }
.nt-tag { font-size: .7rem; padding: 0 .35rem; border-radius: .7rem; background: #f1eee9; border: 1px solid var(--line); }
.nt-tag.mate { background: var(--team); color: #fff; border-color: var(--team); }
.nt-tag.lone { background: #3a3541; color: #fff; }
.nt-tag.pen { background: #fdecea; border-color: var(--accent); color: var(--accent); }
.nt-mark { font-size: .75rem; color: var(--muted); }
.nt-mark.chosen { color: var(--ok); font-weight: 600; }
.nt-mark.bot { color: var(--warn); }
.nt-bubble { font-size: .8rem; background: #fffbe6; border: 1px solid #e6d9a8; border-radius: .8rem; padding: .05rem .45rem; justify-self: start; }
.nt-bubble .em { font-size: 1.1rem; display: inline-block; }
.nt-bubble.fresh { animation: nt-pop .5s ease-out; border-color: var(--warn); }
.nt-bubble.fresh .em { animation: nt-wave 1s ease-in-out 2; }
.nt-bubble.old { opacity: .6; }
.nt-bubble.none { background: none; border-color: transparent; color: var(--muted); padding-left: 0; }
@keyframes nt-pop { 0% { transform: scale(.3); opacity: 0; } 70% { transform: scale(1.15); opacity: 1; } 100% { transform: none; } }
@keyframes nt-wave { 0%, 100% { transform: rotate(0); } 25% { transform: rotate(-18deg); } 75% { transform: rotate(18deg); } }
.nt-hand .row { gap: .6rem; align-items: flex-start; padding-top: .7rem; }
.nt-hand .card { width: 4.2rem; height: 5.8rem; font-size: 2rem; }
.nt-hand .card small { font-size: .8rem; font-weight: 700; }
.nt-slot { display: inline-flex; flex-direction: column; align-items: center; gap: .15rem; transition: transform .15s; }
.nt-slot.chosen { transform: translateY(-.6rem); }
.nt-slot.chosen .card { box-shadow: 0 0 0 3px var(--ok), 0 6px 10px rgba(0,0,0,.25); }
.nt-flag { font-size: .7rem; font-weight: 700; color: #fff; background: var(--ok); border-radius: .6rem; padding: 0 .4rem; }
.nt-slot.new .nt-flag { background: var(--warn); }
.nt-gestures { display: flex; flex-wrap: wrap; gap: .35rem; }
.nt-gesture { font: inherit; font-size: .8rem; display: inline-flex; flex-direction: column; align-items: center; gap: .05rem;
  min-width: 4.6rem; padding: .3rem .35rem; border-radius: .5rem; border: 1px solid var(--line); background: #fff; cursor: pointer; }
.nt-gesture .em { font-size: 1.4rem; line-height: 1.2; }
.nt-gesture small { color: var(--muted); font-size: .7rem; }
.nt-gesture.playable { border-color: var(--focus); }
.nt-gesture.playable:hover { background: #eef4fc; transform: translateY(-2px); }
.nt-gesture:disabled { opacity: .45; cursor: default; }
.nt-gesture.made { opacity: 1; box-shadow: 0 0 0 2px var(--warn); }
.nt-call.right { border-left: .35rem solid var(--ok); }
.nt-call.wrong { border-left: .35rem solid var(--accent); }
.nt-verdict { margin-left: .5rem; font-weight: 600; }
.nt-call.right .nt-verdict { color: var(--ok); } .nt-call.wrong .nt-verdict { color: var(--accent); }
.nt-revealed { margin-top: .4rem; gap: .8rem; }
.nt-reveal { display: inline-flex; align-items: center; gap: .25rem; }
.nt-reveal .card.small { font-size: 1.1rem; }
@media (max-width: 760px) {
  .nt-ring { height: auto; border-radius: .8rem; display: grid; grid-template-columns: 1fr 1fr; gap: .4rem; padding: .4rem; background: #efe6d6; }
  .nt-place { position: static; transform: none; width: auto; }
  .nt-centre { position: static; transform: none; width: auto; grid-column: 1 / -1; order: -1; }
  .nt-gong { display: none; }
  .nt-hand .card { width: 3.6rem; height: 5rem; font-size: 1.7rem; }
  .nt-gesture { min-width: 3.9rem; font-size: .72rem; }
}
`;
