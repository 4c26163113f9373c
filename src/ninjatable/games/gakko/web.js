// Shinobi no Gakko drawn for the browser from one seat's view (the terminal's twin is render.py).
// The table page calls draw(view, ui). Cards carry only a number, so they are drawn alike, grouped by number.
// In a group of equal numbers the k-th card plays a set of k of them; during the split a card moves one card
// to the other hand (a draft the page lets the player undo before `done`).

const HANDS = ["Heaven", "Earth"];

// What the page shows, for the Rules panel.
export const glossary = [
  ["Heaven", "your hidden hand"],
  ["Earth", "your open hand, laid face up once everyone has split"],
  ["Splitting", "at the start of a round everyone divides their cards between Heaven and Earth at once"],
  ["Table", "the tiers of sets played, highest number on top"],
  ["▲ ▼", "what may be played above the highest tier and below the lowest: a set of at least that many cards"],
  ["locked", "the end tier with more cards is locked: nobody plays beyond it or takes it"],
  ["Shuriken", "the last player who played a set; if the turn comes back to them with no play since, the table is cleaned"],
  ["2×7", "a set: two cards of number 7"],
  ["k-th card of a group", "clicking the 2nd 7 plays two 7s, the 3rd three"],
  ["Take low / high", "take the end tier into your Earth instead of playing"],
  ["Costs", "what a hand costs if the round ended now: 1+2+…+n for each group of n equal numbers"],
  ["Undealt", "cards left out of the deal"],
  ["limit", "a safeguard: the round ends after this many turns"],
  ["acted this turn", "the hand has played, taken or passed this turn"],
];

// [[rank, how many], ...] in ascending order, from a sorted list of ranks.
function groups(ranks) {
  const out = [];
  for (const r of ranks || []) {
    if (out.length && out[out.length - 1][0] === r) out[out.length - 1][1] += 1;
    else out.push([r, 1]);
  }
  return out;
}

// What a hand costs if the round ended now: n(n+1)/2 for each group of n equal numbers.
function cost(ranks) {
  return groups(ranks).reduce((sum, [, n]) => sum + (n * (n + 1)) / 2, 0);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function faceUp(ui, ranks, small = true) {
  if (!ranks || !ranks.length) return ui.html`<span class="stat">none</span>`;
  return groups(ranks).map(([r, n]) => ui.html`<span class="set" key=${r}>
    ${Array.from({ length: n }, (_, i) => ui.card(String(r), { colour: "white", small, key: i }))}</span>`);
}

// Face-down cards as a fan, so a hand of fifteen stays one short row.
function backs(ui, n) {
  return ui.html`<span class="fan" aria-label=${`${n} face-down cards`}>
    ${Array.from({ length: n }, (_, i) => ui.card("", { back: true, small: true, key: i }))}</span>`;
}

function header(ui, view) {
  const { html } = ui;
  const playing = view.phase === "play";
  return html`<div class="area gakko-head"><div class="row">
    <span class="stat">Round <b>${view.round}</b> of ${view.rounds}</span>
    ${view.phase === "split" && html`<span class="stat"><b>Splitting</b>: everyone divides their hand at once</span>`}
    ${playing && html`<span class="stat">Turn <b>${view.turn}</b> <span title="safeguard: the round ends after this many turns">(limit ${view.max_turns})</span></span>`}
    ${playing && view.current !== null && html`<span class="stat">To act: <b>${ui.shortName(view.current)}</b>
      ${view.hands_used.length ? ` (${view.hands_used.join(", ")} done)` : ""}</span>`}
    ${view.shuriken !== null && html`<span class="stat" title="the last player who played a set; if the turn comes back to them with no play since, the table is cleaned">Shuriken: <b>${ui.shortName(view.shuriken)}</b></span>`}
    ${view.must_lead && html`<span class="stat"><b>The table was cleaned: ${ui.shortName(view.current)} must play a set</b></span>`}
    <span class="stat">Undealt: <b>${view.undealt}</b></span>
    ${view.phase === "over" && html`<span class="stat"><b>Game over</b>: the last round's hands are shown</span>`}
  </div></div>`;
}

// Where a set may go next, at one end: beyond which number, and how many cards at least.
function endHint(view, end) {
  const tiers = view.table;
  const [rank, count] = end === "high" ? tiers[tiers.length - 1] : tiers[0];
  const way = end === "high" ? "above" : "below";
  if (view.lock === end) return `locked: no set ${way} ${rank}, no taking the ${rank}s`;
  const top = view.players === 3 ? 11 : 13; // three players play without the 12s and 13s
  if (rank === (end === "high" ? top : 1)) return `nothing goes ${way} ${rank}`;
  return `a set ${way} ${rank} needs ${count}+ card${count === 1 ? "" : "s"}`;
}

function table(ui, view) {
  const { html } = ui;
  const tiers = view.table;
  if (view.phase === "split") {
    return html`<div class="area"><h3>Table</h3><p class="stat">After the split, two undealt cards are
      turned up to open the table.</p></div>`;
  }
  const last = tiers.length - 1;
  const rows = tiers.map(([rank, count], i) => ({ rank, count, i })).reverse();
  return html`<div class="area table-area"><h3>Table${tiers.length ? "" : ": empty, any set may be played"}</h3>
    ${tiers.length > 0 && html`<div class="tiers">
      <div class=${`hint${view.lock === "high" ? " locked" : ""}`}>▲ ${endHint(view, "high")}</div>
      ${rows.map(({ rank, count, i }) => {
        const end = i === last ? "high" : i === 0 ? "low" : "";
        const mark = last === 0 ? "both ends" : end ? `${end} end` : "";
        return html`<div class=${`tier${end && view.lock === end ? " locked" : ""}`} key=${rank}>
          <span class="set">${Array.from({ length: count }, (_, k) => ui.card(String(rank), { colour: "white", small: true, key: k }))}</span>
          ${mark && html`<span class="stat">${mark}</span>`}
          ${end && view.lock === end && html`<span class="lock" title="the end with more cards is locked">locked</span>`}
        </div>`;
      })}
      <div class=${`hint${view.lock === "low" ? " locked" : ""}`}>▼ ${endHint(view, "low")}</div>
    </div>`}
    ${view.cleared.length > 0 && html`<div class="stat cleared">Cleaned away this round:${" "}
      <b>${groups(view.cleared).map(([r, n]) => Array(n).fill(r).join(" ")).join(" · ")}</b></div>`}
  </div>`;
}

function opponent(ui, view, seat, s) {
  const { html } = ui;
  const marks = [];
  if (view.shuriken === s) marks.push("shuriken");
  if (view.phase === "split") marks.push(seat.split_done ? "split done" : "splitting…");
  const hidden = seat.heaven === null;
  return html`<div class=${`area${view.to_move.includes(s) ? " turn" : ""}`} key=${s}>
    <h3>${ui.seatName(s)}${marks.map((m) => html` <span class="badge">${m}</span>`)}</h3>
    ${view.phase === "split" ? html`
      <div class="stat">Hand: <b>${plural(seat.cards, "card")}</b>, split kept secret until everyone is done</div>
      <div class="row">${backs(ui, seat.cards)}</div>` : html`
      <div class="stat">Heaven${hidden ? " (hidden)" : ""}: <b>${seat.heaven_count}</b>
        ${hidden && seat.known_heaven.length > 0 && html` · known to hold: ${seat.known_heaven.join(" ")}`}</div>
      <div class="row">${hidden ? backs(ui, seat.heaven_count) : faceUp(ui, seat.heaven)}</div>
      <div class="stat">Earth: <b>${seat.earth.length}</b></div>
      <div class="row">${faceUp(ui, seat.earth)}</div>`}
  </div>`;
}

// One of the seat's hands during the split: each card moves one card of its number to the other hand.
function splitHand(ui, view, hand, ranks) {
  const { html } = ui;
  const other = HANDS[1 - hand];
  const choosing = ui.decision !== null;
  return html`<div class="area mine hand-area">
    <h3>Your ${HANDS[hand]} (${ranks.length}) · ${hand === 0 ? "kept hidden" : "laid face up once everyone has split"}</h3>
    <div class="row hand">${ranks.length ? groups(ranks).map(([r, n]) => html`<span class="set" key=${r}>
      ${Array.from({ length: n }, (_, i) => (choosing
        ? ui.card(String(r), { colour: "white", action: `${r} to ${other}`, note: `Move a ${r} to ${other}`,
                               name: `${r}, move to ${other}`, key: i })
        : ui.card(String(r), { colour: "white", key: i })))}</span>`) : html`<span class="stat">none</span>`}</div>
    ${choosing && html`<div class="stat">Click a card to move it to ${other}.</div>`}
  </div>`;
}

// One of the seat's hands in play: the k-th card of a group plays k cards of that number; take and pass below.
// A hand that has acted this turn is drawn plainly: it has nothing left to choose.
function playHand(ui, view, hand, ranks) {
  const { html } = ui;
  const name = HANDS[hand];
  const acted = view.hands_used.includes(name);
  const acting = ui.decision !== null && !acted;
  const tiers = view.table;
  const ends = tiers.length ? { low: tiers[0], high: tiers[tiers.length - 1] } : null;
  const card = (r, i) => (acting
    ? ui.card(String(r), { colour: "white", action: `${name} ${i + 1}x${r}`, note: `Play ${i + 1} × ${r} from ${name}`,
                           name: `${r}, play ${i + 1} from ${name}`, key: i })
    : ui.card(String(r), { colour: "white", key: i }));
  return html`<div class=${`area mine hand-area${acting ? " turn" : ""}${acted ? " acted" : ""}`}>
    <h3>Your ${name} (${ranks.length}) · ${hand === 0 ? "hidden from the others" : "everyone sees it"}
      ${acted && html` · <b>acted this turn</b>`}</h3>
    <div class="row hand">${ranks.length
      ? groups(ranks).map(([r, n]) => html`<span class="set" key=${r}>${Array.from({ length: n }, (_, i) => card(r, i))}</span>`)
      : html`<span class="stat">empty</span>`}</div>
    ${acting && html`<div class="row hand-actions">
      ${ends && ["low", "high"].map((end) => ui.button(`${name} take ${end}`,
        `Take ${end} ${ends[end][1]}×${ends[end][0]}`, { key: end }))}
      ${ui.button(`${name} pass`, "Pass")}</div>`}
    <div class="stat">${acting && groups(ranks).some(([, n]) => n > 1) ? "In a group the 2nd card plays two, the 3rd three… " : ""}
      ${view.phase === "over" ? "Cost at the round's end" : "Costs"} <b>${cost(ranks)}</b>${view.phase === "over" ? "" : " if the round ended now"}.</div>
  </div>`;
}

export function draw(view, ui) {
  const { html } = ui;
  const me = view.seat;
  const others = view.seats.map((seat, s) => ({ seat, s })).filter(({ s }) => s !== me);
  const opponents = html`<div class="opponents">${others.map(({ seat, s }) => opponent(ui, view, seat, s))}</div>`;
  let mine = null;
  if (me !== null) {
    const seat = view.seats[me];
    const hand = view.phase === "split" ? splitHand : playHand;
    mine = html`<div class="gakko-mine">${hand(ui, view, 0, seat.heaven || [])}${hand(ui, view, 1, seat.earth || [])}</div>`;
  }
  return html`${header(ui, view)}${opponents}${table(ui, view)}${mine}`;
}

export const css = `
.gakko-head .row { gap: 1rem; }
.set { display: inline-flex; gap: .15rem; margin-right: .35rem; }
.set button.card.playable:hover { transform: translateY(-2px); }
.set:has(button.card.playable:hover) button.card, .set:has(button.card.playable:focus-visible) button.card { transform: translateY(-7px); }
.set button.card:hover ~ button.card, .set button.card:focus-visible ~ button.card { transform: none; }
.tiers { display: flex; flex-direction: column; gap: .15rem; align-items: flex-start; }
.tier { display: flex; align-items: center; gap: .5rem; padding: .1rem .4rem; border-radius: .4rem; }
.tier.locked { background: #fdecea; }
.tiers .card.small { width: 1.9rem; height: 2.5rem; }
.hint { font-size: .8rem; color: var(--muted); }
.hint.locked { color: var(--accent); }
.lock { font-size: .75rem; font-weight: 700; color: #fff; background: var(--accent); border-radius: .3rem; padding: .05rem .4rem; text-transform: uppercase; letter-spacing: .04em; }
.fan { display: inline-flex; padding-right: 1.1rem; }
.fan .card { margin-right: -1.1rem; }
.area h3 .badge { white-space: nowrap; }
.hand-area.acted .card { opacity: .75; }
.cleared { margin-top: .5rem; }
.gakko-mine { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .6rem; }
.hand-area .hand { min-height: 4.4rem; }
.hand-actions { margin: .5rem 0 .3rem; }
`;
