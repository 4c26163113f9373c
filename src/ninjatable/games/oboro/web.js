// Oboro Ninja Star Trick, drawn for the browser from one seat's view (the terminal's twin is render.py).
// The table page calls draw(view, ui); `ui.card(..., {action})` makes a card play the action of its label.

const COLOURS = { R: "red", B: "blue", G: "green" };
const ORDER = ["red", "blue", "green"];
const ARROW = "➶";
const SHURIKEN = "✦";
const PIECES = 5; // Shuriken pieces in the game
const COLOUR_WORDS = { R: "red", B: "blue", G: "green" };

// What the page shows, for the Rules panel.
export const glossary = [
  [`${ARROW} Arrow`, "an Arrow card: whoever plays it leads the next trick, whoever wins it (a later Arrow in the trick overrides an earlier one); the header lists this game's Arrows"],
  [`${SHURIKEN} Shuriken`, "the 6s: whoever takes the trick takes a Shuriken piece from the stock for each 6 in it"],
  [`${SHURIKEN}${SHURIKEN}✧ stock`, `the Shuriken pieces left in the stock (${SHURIKEN} a piece still there, ✧ one taken); when it runs out, Shuriken scoring`],
  ["Mission Value", "the Secrecy card: a Ninja Power above it scores nothing this round"],
  ["Ninja Power", "the sum of the top cards of a Card Area; in red when it is over the Mission Value"],
  ["Card Area", "the tricks a player took, one stack per colour; only each stack's top card shows, with its height"],
  ["Colours", "how many colours a player received: breaks a tie in Ninja Power"],
  ["No red left", "the player did not follow red, so holds no red card this round"],
  ["winning (gold ring)", "the card winning the trick so far: the highest value, the later card on a tie"],
  ["Last trick", "the trick just completed and who won it, shown until the next card is played"],
  ["blue ring", "a card you may play now"],
  ["greyed card", "a card you may not play now: tap or hover it for the reason"],
  ["R5, B2, G6", "the record's short card names: red 5, blue 2, green 6"],
];

// The log's card names in the cards' words: "R5" as "red 5".
export function words(text) {
  return text.replace(/\b([RBG])([1-8])\b/g, (_, c, v) => `${COLOUR_WORDS[c]} ${v}`);
}

// A card face: its value large, its colour as the face and a caption, the Arrow or Shuriken icon in the corner.
function cardOf(ui, view, label, extra = {}) {
  const colour = COLOURS[label[0]];
  const value = label.slice(1);
  const arrow = view.arrows.includes(label);
  const shuriken = value === "6";
  const icon = arrow ? ARROW : shuriken ? SHURIKEN : "";
  const what = arrow ? ", Arrow: its player leads the next trick"
    : shuriken ? ", Shuriken: whoever takes it gets a Shuriken piece" : "";
  const name = `${colour} ${value}${arrow ? ", Arrow" : shuriken ? ", Shuriken" : ""}`;
  const text = ui.html`${value}${icon && ui.html`<i class="ob-icon" aria-hidden="true">${icon}</i>`}`;
  return ui.card(text, { colour, sub: colour, name, note: `${colour} ${value}${what}`, key: label, ...extra });
}

// A hand as it is held: grouped by colour, each card playing its own label when that is legal.
function hand(ui, view, labels) {
  return ORDER.map((colour) => labels.filter((l) => COLOURS[l[0]] === colour)).filter((g) => g.length)
    .map((group) => ui.html`<span class="row ob-suit">${group.map((l) => cardOf(ui, view, l, { action: l }))}</span>`);
}

// A Card Area: one stack per colour, only its top card visible, its height beneath.
function cardArea(ui, view, seat, small) {
  const { html } = ui;
  return html`<div class="row ob-area">${ORDER.map((colour) => {
    const stack = seat.card_area[colour];
    if (!stack.top) {
      return html`<span class="ob-stack" key=${colour}><span class=${`ob-empty${small ? " small" : ""}`}
        title=${`no ${colour} cards taken`}>${colour}</span><span class="stat">0 cards</span></span>`;
    }
    const depth = Math.min(stack.height, 4) - 1;
    return html`<span class=${`ob-stack depth-${depth}`} key=${colour}>${cardOf(ui, view, stack.top, { small })}
      <span class="stat">${stack.height} card${stack.height === 1 ? "" : "s"}</span></span>`;
  })}</div>`;
}

function pieces(count, of) {
  return Array.from({ length: of }, (_, i) => (i < count ? SHURIKEN : "✧")).join("");
}

// The numbers that score: Ninja Power against the Mission Value, colours received, Shuriken pieces held.
function standing(ui, view, seat) {
  const { html } = ui;
  const over = seat.ninja_power > view.mission_value;
  return html`<div class="row ob-standing">
    <span class=${`stat${over ? " ob-over" : ""}`} title="the sum of the top cards of the Card Area">Ninja Power <b>${seat.ninja_power}</b>${over ? " — over the Mission Value" : ""}</span>
    <span class="stat" title="colours received: breaks a tie in Ninja Power">Colours <b>${seat.colours}</b></span>
    <span class="stat" title="Shuriken pieces held">Shuriken <b>${seat.shuriken}</b></span>
    ${seat.void.length > 0 && html`<span class="stat">No ${seat.void.join(", ")} left</span>`}
  </div>`;
}

// Who leads, in words; nothing once the game is over (nobody leads then).
function leading(ui, view) {
  if (!view.to_move.length) return "";
  return `${ui.shortName(view.leader)} lead${view.leader === view.seat ? "" : "s"}`;
}

// Position in the trick of the card winning so far: the highest value, the later card on a tie.
function winningSoFar(trick) {
  let best = 0;
  trick.forEach(([, label], i) => { if (Number(label.slice(1)) >= Number(trick[best][1].slice(1))) best = i; });
  return best;
}

export function draw(view, ui) {
  const { html } = ui;
  const last = ui.lastTrick ? ui.lastTrick() : null;  // from the log: every card played is public
  const me = view.seat;
  const turn = (s) => view.to_move.includes(s);
  const header = html`<div class="area ob-head"><div class="row">
    <span class="ob-secrecy" title="The Secrecy card: a Ninja Power above it scores nothing this round">
      ${ui.card(String(view.mission_value), { colour: "black", sub: "mission", small: false, name: `Mission Value ${view.mission_value}` })}
      <span class="stat">Mission Value<br /><b>${view.mission_value}</b> or less</span></span>
    <span class="stat">Round <b>${view.round}</b>${view.final_round ? html` · <b class="ob-final">final round</b>` : ""}</span>
    <span class="stat">Trick <b>${view.trick_number}</b> of ${view.tricks_per_round}</span>
    <span class="stat" title="When the stock runs out, Shuriken scoring; the second one ends the game after its round">
      Shuriken stock <b class="ob-pieces">${pieces(view.shuriken_stock, PIECES)}</b> <b>${view.shuriken_stock}</b> of ${PIECES} ·
      scorings <b>${view.shuriken_scorings}</b> of 2</span>
  </div>
  <div class="stat ob-legend">${ARROW} Arrow (${view.arrows.join(" ")}): its player leads the next trick ·
    ${SHURIKEN} Shuriken (the 6s): a piece to whoever takes it</div></div>`;

  const others = view.seats.map((seat, s) => ({ seat, s })).filter(({ s }) => s !== me);
  const opponents = html`<div class="opponents">${others.map(({ seat, s }) => html`
    <div class=${`area${turn(s) ? " turn" : ""}`} key=${s}>
      <h3>${ui.seatName(s)}${turn(s) ? " · to play" : ""}</h3>
      <div class="row ob-backs" aria-label=${`${seat.hand_size} cards in hand`}>${Array.from({ length: seat.hand_size },
        (_, i) => ui.card("", { back: true, small: true, key: i }))}</div>
      ${cardArea(ui, view, seat, true)}
      ${standing(ui, view, seat)}
    </div>`)}</div>`;

  const best = view.trick.length ? winningSoFar(view.trick) : -1;
  const trick = html`<div class="area trick">
    <h3>Trick ${view.trick_number}${view.trick.length ? ` · ${view.led} led by ${ui.shortName(view.leader)}`
      : leading(ui, view) && ` · ${leading(ui, view)}`}</h3>
    <div class="row">${view.trick.map(([s, label], i) => html`<span class=${`ob-played trick-card${i === best ? " ob-best" : ""}`} key=${label}>
      ${cardOf(ui, view, label)}<span class="stat">${ui.shortName(s)}${i === best ? " · winning" : ""}</span></span>`)}
      ${view.trick.length === 0 && !last && html`<span class="stat">No card played yet.</span>`}</div>
    ${view.trick.length === 0 && last && ui.lastTrickArea(last, (label) => cardOf(ui, view, label), "ob-played")}
    ${view.arrow !== null && html`<div class="stat">${ARROW} ${ui.shortName(view.arrow)} ${view.arrow === me ? "lead" : "leads"} the next trick (Arrow)</div>`}
  </div>`;

  let mine = null;
  if (me !== null) {
    const seat = view.seats[me];
    mine = html`<div class=${`area mine${turn(me) ? " turn" : ""}`}>
      <h3>Your hand (${seat.hand_size})</h3>
      <div class="row ob-hand">${hand(ui, view, seat.hand || [])}</div>
      <h3 class="ob-gap">Your Card Area</h3>
      ${cardArea(ui, view, seat, false)}
      ${standing(ui, view, seat)}
    </div>`;
  }
  return html`<div class="oboro">${header}${trick}${mine}${opponents}</div>`;
}

export const css = `
.oboro { display: grid; gap: .8rem; }
.oboro .card { position: relative; }
.ob-icon { position: absolute; top: .12rem; right: .18rem; font-style: normal; font-size: 1rem; font-weight: 700; line-height: 1; }
.card.small .ob-icon { font-size: .8rem; top: .05rem; right: .1rem; }
.ob-head .row { gap: .6rem 1.2rem; }
.ob-secrecy { display: inline-flex; align-items: center; gap: .4rem; }
.stat b.ob-pieces { letter-spacing: .1em; color: var(--yellow); font-size: 1.1rem; }
.ob-final { color: var(--accent); }
.ob-legend { margin-top: .4rem; }
.ob-hand { gap: .8rem; }
.oboro h3.ob-gap { margin-top: .8rem; }
.ob-suit { gap: .25rem; }
.ob-backs { gap: .15rem; margin-bottom: .4rem; }
.ob-backs .card.small { width: 1.3rem; height: 1.9rem; }
.ob-area { gap: .6rem; align-items: flex-start; }
.ob-stack, .ob-played { display: inline-flex; flex-direction: column; align-items: center; gap: .15rem; }
.ob-stack.depth-1 .card { box-shadow: 3px 3px 0 -1px #fff, 3px 3px 0 0 #9a938a; }
.ob-stack.depth-2 .card, .ob-stack.depth-3 .card { box-shadow: 3px 3px 0 -1px #fff, 3px 3px 0 0 #9a938a,
  6px 6px 0 -1px #fff, 6px 6px 0 0 #9a938a; }
.ob-empty { display: inline-flex; align-items: center; justify-content: center; width: 2.9rem; height: 4.1rem;
  border: 2px dashed var(--line); border-radius: .4rem; color: var(--muted); font-size: .65rem; }
.ob-empty.small { width: 2.1rem; height: 3rem; font-size: .55rem; }
.ob-standing { margin-top: .4rem; gap: .2rem .8rem; }
.ob-over, .ob-over b { color: var(--accent); }
.ob-best .card { outline: 3px solid var(--yellow); outline-offset: 1px; }
.oboro .last-trick { margin-top: .3rem; }
@media (min-width: 761px) {
  .oboro .opponents { order: 1; } .oboro .trick { order: 2; } .oboro .area.mine { order: 3; }
}
@media (max-width: 760px) {
  .ob-legend { display: none; }
  .ob-empty { width: 2.5rem; height: 3.6rem; }
  .ob-icon { font-size: .8rem; top: .08rem; right: .1rem; }
}
`;
