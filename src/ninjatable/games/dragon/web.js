// Slaughter the Dragon, Ha, drawn for the browser from one seat's view (the terminal's twin is render.py).
// The table page calls draw(view, ui); `ui.card(..., {action})` makes a card play the action of its label.

const COLOURS = { P: "purple", R: "red", B: "blue", G: "green" };
const ORDER = "PRBG";

function cardOf(ui, label, extra = {}) {
  const colour = COLOURS[label[0]];
  return ui.card(label.slice(1), { colour, sub: colour, key: label, ...extra });
}

function cards(ui, labels, extra = {}) {
  if (!labels || !labels.length) return ui.html`<span class="stat">none</span>`;
  return labels.map((label) => cardOf(ui, label, extra));
}

// A hand as it is held: grouped by colour, each card playing its own label when that is legal.
function hand(ui, labels) {
  return ORDER.split("").map((c) => labels.filter((l) => l[0] === c)).filter((g) => g.length)
    .map((group) => ui.html`<span class="row suit">${group.map((l) => cardOf(ui, l, { action: l }))}</span>`);
}

function tokens(seat) {
  const body = seat.dragon_head ? seat.dragon_tokens - 1 : seat.dragon_tokens;
  return `${body} body${body === 1 ? "" : " tokens"}${seat.dragon_head ? " + the Head" : ""}`;
}

export function draw(view, ui) {
  const { html } = ui;
  const me = view.seat;
  const trumpColour = view.trump;
  const jutsu = view.practitioner === null ? "" : `${ui.shortName(view.practitioner)}: ${view.jutsu}`
    + (view.jutsu === "bodily division" ? ` (holds ${trumpColour} ${view.countdown})` : "");
  const header = html`<div class="area dragon-head">
    <div class="row">
      <span class="stat">Round <b>${view.round}</b> of ${view.rounds}</span>
      <span class="stat">Trump ${ui.card("", { colour: trumpColour, small: true, name: `trump ${trumpColour}` })} <b>${trumpColour}</b></span>
      <span class="stat">Trick <b>${Math.min(view.tricks_played + 1, view.tricks_in_round)}</b> of ${view.tricks_in_round}</span>
      <span class="stat">${view.purple_broken ? "Purple may be led" : "Purple may not be led yet"}</span>
      ${jutsu && html`<span class="stat">Jutsu: <b>${jutsu}</b></span>`}
      ${view.summoner !== null && html`<span class="stat">Summoning: <b>${ui.shortName(view.summoner)}</b></span>`}
    </div></div>`;

  const scale = html`<div class="area"><h3>Inverted Scale</h3><div class="row">
    ${Array.from({ length: view.scale_size }, (_, i) => ui.can(`scale${i + 1}`)
      ? ui.card("?", { back: true, action: `scale${i + 1}`, name: `Inverted Scale card ${i + 1}, face down`, key: i })
      : ui.card("", { back: true, key: i }))}
    ${view.revealed_scale.length > 0 && html`<span class="stat">revealed at the end of the last round:</span>
      ${cards(ui, view.revealed_scale, { small: true })}`}
  </div></div>`;

  const trick = html`<div class="area trick"><h3>Trick${view.trick.length ? "" : ": nobody has played yet"}</h3>
    <div class="row">${view.trick.map(([s, label]) => html`<span class="played">
      ${cardOf(ui, label)}<span class="stat">${ui.shortName(s)}</span></span>`)}</div></div>`;

  const others = view.seats.map((seat, s) => ({ seat, s })).filter(({ s }) => s !== me);
  const opponents = html`<div class="opponents">${others.map(({ seat, s }) => html`
    <div class=${`area${view.to_move.includes(s) ? " turn" : ""}`}>
      <h3>${ui.seatName(s)}</h3>
      <div class="row">${Array.from({ length: Math.min(seat.hand_size, 12) }, (_, i) => ui.card("", { back: true, small: true, key: i }))}</div>
      <div class="stat">Hand <b>${seat.hand_size}</b>${seat.pile_size ? html` · 2nd-half pile <b>${seat.pile_size}</b>` : ""}
        · ${tokens(seat)}</div>
      <div class="row">${seat.purples.length ? cards(ui, seat.purples, { small: true }) : ""}</div>
    </div>`)}</div>`;

  let mine = null;
  if (me !== null) {
    const seat = view.seats[me];
    mine = html`<div class=${`area mine${view.to_move.includes(me) ? " turn" : ""}`}>
      <h3>Your hand (${seat.hand_size})${seat.pile_size ? ` · 2nd-half pile (${seat.pile_size})` : ""} · ${tokens(seat)}</h3>
      <div class="row hand">${hand(ui, seat.hand || [])}</div>
      ${seat.pile && seat.pile.length > 0 && html`<h3>Your 2nd-half pile</h3><div class="row">${cards(ui, seat.pile, { small: true })}</div>`}
      ${seat.purples.length > 0 && html`<h3>Purples you took</h3><div class="row">${cards(ui, seat.purples, { small: true })}</div>`}
      ${seat.known_elsewhere.length > 0 && html`<h3>You know where these lie</h3><div class="row">
        ${seat.known_elsewhere.map(([label, where]) => html`<span class="played">${cardOf(ui, label, { small: true })}
          <span class="stat">${typeof where === "number" ? ui.shortName(where) : `in ${where === "scale" ? "the scale" : where}`}</span></span>`)}</div>`}
    </div>`;
  }
  return html`${header}${opponents}${trick}${scale}${mine}`;
}

export const css = `
.dragon-head .row { gap: 1rem; }
.played { display: inline-flex; flex-direction: column; align-items: center; gap: .15rem; }
.hand { gap: .8rem; }
.suit { gap: .25rem; }
`;
