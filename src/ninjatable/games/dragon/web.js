// Slaughter the Dragon, Ha, drawn for the browser from one seat's view (the terminal's twin is render.py).
// The table page calls draw(view, ui); `ui.card(..., {action})` makes a card play the action of its label.

const COLOURS = { P: "purple", R: "red", B: "blue", G: "green" };
const ORDER = "PRBG";

// What the page shows, for the Rules panel.
export const glossary = [
  ["Trump (a small card)", "the Trump Indicator's colour this round: a trump beats any card of the colour led"],
  ["purple, red, blue, green", "the colours; each card carries its number large and its colour's name beneath"],
  ["P7, R12, B1, G5", "the record's short card names: 7 purple, 12 red, 1 blue, 5 green"],
  ["Purple may not be led yet", "nobody may lead purple until a purple card has been taken (unless a hand holds only purple)"],
  ["body tokens", "Dragon Body tokens, one per trick won, +5 points each"],
  ["the Head", "the Dragon Head token, taken by the winner of a round's last trick instead of a body token (+5)"],
  ["Purples you took", "purple cards taken in tricks: each scores minus its number"],
  ["Inverted Scale", "the cards left over after the deal, face down; revealed after the last trick, its purples go to that trick's winner"],
  ["Summoning", "the winner of the last round's last trick takes 2 Inverted Scale cards and puts 2 back"],
  ["Jutsu: bodily division", "the holder of the highest trump splits their hand: the 2nd-half pile is taken up once the hand is empty"],
  ["Jutsu: soul-sucking", "every other player gives the practitioner a card, who gives one back to each"],
  ["2nd-half pile", "the cards a Bodily Division practitioner set aside for the second half of the round"],
  ["Last trick", "the trick just completed and who won it, shown until the next card is played"],
  ["blue ring", "a card you may play now"],
  ["greyed card", "a card you may not play now: tap or hover it for the reason"],
];

// The log's card names in the cards' words: "P4" as "4 purple".
export function words(text) {
  return text.replace(/\b([PRBG])(1[0-2]|[1-9])\b/g, (_, c, n) => `${n} ${COLOURS[c]}`);
}

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
  const last = ui.lastTrick ? ui.lastTrick() : null;  // from the log: every card played is public
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

  const scale = html`<div class="area scale"><h3>Inverted Scale</h3><div class="row">
    ${Array.from({ length: view.scale_size }, (_, i) => ui.can(`scale${i + 1}`)
      ? ui.card("?", { back: true, action: `scale${i + 1}`, name: `Inverted Scale card ${i + 1}, face down`, key: i })
      : ui.card("", { back: true, key: i }))}
    ${view.revealed_scale.length > 0 && html`<span class="stat">revealed at the end of the last round:</span>
      ${cards(ui, view.revealed_scale, { small: true })}`}
  </div></div>`;

  const trick = html`<div class="area trick"><h3>Trick${view.trick.length || last ? "" : ": nobody has played yet"}</h3>
    <div class="row">${view.trick.map(([s, label]) => html`<span class="played trick-card" key=${label}>
      ${cardOf(ui, label)}<span class="stat">${ui.shortName(s)}</span></span>`)}</div>
    ${view.trick.length === 0 && last && ui.lastTrickArea(last, (label) => cardOf(ui, label))}</div>`;

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
  return html`<div class="dragon">${header}${trick}${scale}${mine}${opponents}</div>`;
}

export const css = `
.dragon-head .row { gap: 1rem; }
.played { display: inline-flex; flex-direction: column; align-items: center; gap: .15rem; }
.hand { gap: .8rem; }
.dragon { display: grid; gap: .8rem; }
@media (min-width: 761px) {
  .dragon .opponents { order: 1; } .dragon .trick { order: 2; } .dragon .area.scale { order: 3; } .dragon .area.mine { order: 4; }
}
.suit { gap: .25rem; }
`;
