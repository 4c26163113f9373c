// Ninja Clan Wars, drawn for the browser from one seat's view (the terminal's twin is render.py).
// Each clan: its village (Shinobi Markers), hand size and Ninja in play; the combat under way; your hand grouped
// by the phase each card is played in. A card, a Ninja or a village is a button when choosing it is legal.
import { CARDS } from "./cards.js";

// The hand's groups, in the order of a turn.
const GROUPS = [
  ["recruit", "Ninja to recruit"], ["spy", "Spy Phase"], ["mission", "Mission Phase"],
  ["contest", "Stealth and Fight contests"], ["endurance", "When an attacker is killed"],
];

// The words for the moves that play no card, by the kernel's label (the pass by the phase it ends).
const PASS_TEXT = {
  spy: "Pass: on to the Mission Phase",
  "mission: choose an attacker": "Pass: end the Mission Phase",
  block: "No block",
  "mission: add attacking Ninja": "No more attackers",
  "add defending Ninja": "No more defenders",
  endurance: "Pass: let it die",
};
const MOVE_TEXT = {
  negate: "Negate the attack",
  withdraw: "Withdraw",
  spy: "Use a SPY Ninja: look at a hand",
};

// What the page shows, for the Rules panel.
export const glossary = [
  ["S, F", "Stealth and Fight: a Ninja's ratings, written 3S/2F (Stealth 3, Fight 2)"],
  ["+3S, +2F", "an Event card's bonus to the Stealth or the Fight total of the contest it is played in"],
  ["AYN", "all your other Ninja (Clan Leader: AYN get F+1)"],
  ["ECP", "for each Event card played in its contest (Ninjitsu Master: ECP get S+1)"],
  ["TIP", "tokens into play: the card puts Ninja tokens into play instead of itself"],
  ["SPY", "may look at an opponent's hand in the Spy Phase"],
  ["looked", "a SPY Ninja that has looked at a hand this turn"],
  ["cost", "the Shinobi Markers a Ninja costs to recruit"],
  ["village", "a clan's village: the number is its Shinobi Markers"],
  ["black card", "a Ninja; grey: a recruit or Endurance Event; teal: a Spy Phase Event; brown: a Mission Phase Event"],
  ["blue, red, purple card", "a contest Event giving Stealth, Fight, or either"],
  ["Attacks left", "the attacks the clan whose turn it is may still make"],
  ["Mass combat", "each side may add this many more Ninja to the combat"],
  ["defender wins ties", "an attack needs a higher total than the defence"],
  ["blue ring", "a card, Ninja or village you may choose now"],
  ["greyed card", "one you may not play now: tap or hover it for the reason"],
];

// A card's rulebook line, or words for a Ninja with no ability (the card itself says "-").
function helpOf(card) {
  return !card || card.help === "-" ? "no special ability" : card.help;
}

function cardColour(card) {
  if (card.kind === "ninja") return "black";
  if (card.phase !== "contest") return { spy: "teal", mission: "brown", recruit: "grey", endurance: "grey" }[card.phase];
  const stealth = /\+\d+S/.test(card.notes);
  const fight = /\+\d+F/.test(card.notes);
  return stealth && fight ? "purple" : fight ? "red" : "blue";
}

function caption(card) {
  if (card.kind !== "ninja") return card.notes;
  const ratings = card.stealth === null ? card.notes : `${card.stealth}S/${card.fight}F${card.notes === "-" ? "" : ` · ${card.notes}`}`;
  return `cost ${card.cost} · ${ratings}`;
}

// A card of the hand: it plays its first legal use (discard it, recruit it, play it for +S or +F); a second
// legal use (recruit with Sleeper Agent) gets a small button beside it.
function handCard(ui, name, key) {
  const card = CARDS[name];
  const uses = [`discard ${name}`, ...card.plays];
  const legal = uses.filter((label) => ui.can(label));
  const main = legal[0] || card.plays[0];
  const note = legal.length ? `${main} (${helpOf(card)})` : helpOf(card);
  // An Event of two bonuses says which one a click plays now (the contest under way allows only one).
  const choice = legal.length && card.kind === "event" && main.startsWith(`${name} +`) ? ` · now ${main.slice(name.length + 1)}` : "";
  const face = ui.card(ui.html`<b>${name}</b>`, { colour: cardColour(card), sub: caption(card) + choice, action: main,
    name: `${name}: ${caption(card)}`, note });
  const more = legal.slice(1).map((label) => ui.button(label, label.replace(`recruit ${name} `, "").replace(`${name} `, "")));
  return ui.html`<span class="cw-slot" key=${key}>${face}${more}</span>`;
}

function hand(ui, names) {
  if (!names.length) return ui.html`<span class="stat">no cards</span>`;
  return GROUPS.map(([phase, title]) => {
    const group = names.filter((n) => CARDS[n].phase === phase);
    if (!group.length) return null;
    return ui.html`<div class="cw-group" key=${phase}><div class="stat">${title}</div>
      <div class="row">${group.map((n, i) => handCard(ui, n, `${n}-${i}`))}</div></div>`;
  });
}

// A Ninja in play with its current ratings; it is a button when choosing it is the move (attack, target, block...).
function ninja(ui, n, key) {
  const card = CARDS[n.name];
  const notes = card ? helpOf(card) : (n.notes ? `token with ${n.notes}` : "token");
  const spy = n.spy_used ? " · looked" : "";
  return ui.card(ui.html`<b>${n.name}</b>`, { colour: n.cost ? "black" : "grey", key,
    sub: `${n.stealth}S / ${n.fight}F${n.cost ? ` · cost ${n.cost}` : ""}${spy}`,
    action: ui.can(n.name) ? n.name : null, name: `${n.name}, Stealth ${n.stealth}, Fight ${n.fight}`, note: notes });
}

function village(ui, clan) {
  const label = `Player ${clan.seat + 1}`;
  return ui.html`<span class="cw-village">${ui.card(String(clan.markers), { colour: "brown", sub: "village",
    action: ui.can(label) ? label : null, name: `${ui.shortName(clan.seat)}'s village, ${clan.markers} Shinobi Markers`,
    note: `${clan.markers} Shinobi Markers` })}</span>`;
}

function chips(ui, names, extra = "") {
  return names.map((n, i) => ui.html`<span class=${`cw-chip ${extra}`} key=${i}
    title=${CARDS[n] ? helpOf(CARDS[n]) : ""}>${n}</span>`);
}

function clan(ui, view, c) {
  const { html } = ui;
  const turn = view.to_move.includes(c.seat);
  const mine = c.seat === view.seat;
  const state = c.defeated ? " · defeated" : c.first_turn ? " · first turn (no attack)" : "";
  return ui.html`<div class=${`area cw-clan${turn ? " turn" : ""}${mine ? " mine" : ""}`} key=${c.seat}>
    <h3>${mine ? "Your clan" : ui.seatName(c.seat)}${state}${c.seat === view.current && !view.over ? (mine ? " · your turn" : " · their turn") : ""}</h3>
    <div class="row cw-units">${village(ui, c)}
      ${c.ninja.length ? c.ninja.map((n) => ninja(ui, n, n.unit)) : ui.html`<span class="stat">no Ninja in play</span>`}</div>
    ${!mine && html`<div class="stat">Hand <b>${c.hand_count}</b>${c.knows_deck_top
      ? ` · knows the next ${c.knows_deck_top} cards of the deck` : ""}</div>`}
  </div>`;
}

// "your" for the seat's own, "Bo's" for another's.
function whose(ui, view, seat) {
  return seat === view.seat ? "your" : `${ui.shortName(seat)}'s`;
}

function combat(ui, view) {
  const c = view.combat;
  const attacking = c.attacking.map((n) => ninja(ui, n, `a${n.unit}`));
  if (c.defender < 0) {  // the attacker is chosen, the target not yet
    return ui.html`<div class="area cw-combat"><h3>Combat: ${ui.shortName(c.attacker)} ${c.attacker === view.seat
      ? "attack" : "attacks"} with ${c.attacking.map((n) => n.name).join(" and ")}, choosing a target</h3>
      <div class="row">${attacking}</div></div>`;
  }
  const target = `${whose(ui, view, c.defender)} ${c.target}`;
  const stat = c.contest === "fight" ? "Fight" : "Stealth";
  const [att, dfn] = c.totals;
  const bonus = c.contest === "fight" && (c.bonus[0] || c.bonus[1])
    ? ` (with the Fight bonus ${c.bonus[0] ? `+${c.bonus[0]} attacker` : ""}${c.bonus[0] && c.bonus[1] ? ", " : ""}${c.bonus[1] ? `+${c.bonus[1]} defender` : ""})` : "";
  return ui.html`<div class="area cw-combat">
    <h3>Combat: ${ui.shortName(c.attacker)} ${c.attacker === view.seat ? "attack" : "attacks"} ${target}${c.blocker ? `, blocked by ${c.blocker}` : ""}</h3>
    <div class="cw-sides">
      <div><div class="stat">Attacking</div><div class="row">${attacking}</div></div>
      <div class="cw-score" aria-label=${`${stat}: attacker ${att}, defender ${dfn}`}>
        <span class="stat">${stat}</span><span><b>${att}</b> : <b>${dfn}</b></span>
        <span class="stat">defender wins ties</span></div>
      <div><div class="stat">Defending</div><div class="row">
        ${c.village ? ui.html`<span class="cw-chip">the village 0S/0F</span>` : ""}
        ${c.defending.map((n) => ninja(ui, n, `d${n.unit}`))}</div></div>
    </div>
    ${bonus && ui.html`<div class="stat">${stat} totals${bonus}</div>`}
    ${c.plays.length > 0 && ui.html`<div class="row">${c.plays.map((p, i) => ui.html`<span key=${i}
      class=${`cw-chip ${p.negated ? "negated" : ""}`} title=${p.negated ? "negated by Taijutsu Grapple" : ""}>
      ${p.side} · ${p.card} +${p.bonus}${c.contest === "fight" ? "F" : "S"}</span>`)}</div>`}
    ${c.log.length > 0 && ui.html`<div class="stat">${c.log.join(" · ")}</div>`}
  </div>`;
}

function moves(ui, view) {
  const buttons = [];
  if (ui.can("pass") && view.phase !== "recruit") buttons.push(ui.button("pass", PASS_TEXT[view.phase] || "Pass"));
  if (ui.can("fight")) buttons.push(ui.button("fight", view.phase === "target's choice" ? "Fight back (Fight +3)" : "Fight (Fight +3)"));
  for (const label of ["negate", "withdraw", "spy"]) if (ui.can(label)) buttons.push(ui.button(label, MOVE_TEXT[label]));
  return buttons.length ? ui.html`<div class="row cw-moves">${buttons}</div>` : null;
}

function header(ui, view) {
  const { html } = ui;
  const phase = view.phase.charAt(0).toUpperCase() + view.phase.slice(1);
  const last = view.discard.slice(-4);
  return ui.html`<div class="area cw-head"><div class="row">
    ${view.over ? html`<span class="stat"><b>The war is over</b></span>` : html`<span class="stat">${view.current === view.seat
      ? "Your" : html`<b>${ui.shortName(view.current)}</b>'s`} turn: <b>${phase}</b></span>`}
    <span class="stat">Deck <b>${view.deck}</b></span>
    ${!view.over && html`<span class="stat">Attacks left <b>${Math.max(view.attacks_left, 0)}</b></span>`}
    ${view.mass > 0 && ui.html`<span class="stat">Mass combat: each side may add <b>${view.mass}</b> Ninja</span>`}
    ${view.pending && ui.html`<span class="stat">Resolving <b>${view.pending}</b></span>`}
  </div>
  <div class="row"><span class="stat">Discard pile <b>${view.discard.length}</b>${last.length ? ", last:" : ""}</span>${chips(ui, last, "small")}</div>
  </div>`;
}

function finalRanking(ui, view) {
  const f = view.final;
  return ui.html`<div class="area"><h3>Final ranking: highest Ninja by ${f.ranking === "cost" ? "Cost" : "Stealth + Fight"},
    then number of Ninja, then Shinobi Markers</h3><ol class="cw-final">${f.rows.map((r) => ui.html`<li key=${r.seat}>
      ${ui.seatName(r.seat)}: best Ninja ${Math.max(r.best_rank, 0)}, ${r.ninja} Ninja, ${r.markers} markers</li>`)}</ol></div>`;
}

function knowledge(ui, view) {
  const k = view.knowledge && view.knowledge[view.seat];
  if (!k) return null;
  const lines = [];
  for (const [who, cards] of Object.entries(k.hands || {})) lines.push(ui.html`<div class="row" key=${`h${who}`}>
    <span class="stat">You know ${who} holds:</span>${chips(ui, cards)}</div>`);
  for (const [who, cards] of Object.entries(k.one_may_be_stolen || {})) lines.push(ui.html`<div class="row" key=${`d${who}`}>
    <span class="stat">${who} holds all but at most one (stolen) of:</span>${chips(ui, cards)}</div>`);
  if (k.deck_top && k.deck_top.length) lines.push(ui.html`<div class="row" key="top">
    <span class="stat">Next cards of the deck:</span>${chips(ui, k.deck_top)}</div>`);
  return lines.length ? lines : null;
}

export function draw(view, ui) {
  const { html } = ui;
  const me = view.seat;
  const others = view.clans.filter((c) => c.seat !== me);
  let mine = null;
  if (me !== null && me !== undefined) {
    const c = view.clans[me];
    const cards = [...(c.hand || [])].sort((a, b) => Object.keys(CARDS).indexOf(a) - Object.keys(CARDS).indexOf(b));
    mine = html`${clan(ui, view, c)}
      <div class=${`area mine${view.to_move.includes(me) ? " turn" : ""}`}>
        <h3>Your hand (${c.hand_count})</h3><div class="cw-hand">${hand(ui, cards)}</div>${knowledge(ui, view)}</div>`;
  }
  return html`<div class="cw">${header(ui, view)}${view.final && finalRanking(ui, view)}
    ${view.combat && combat(ui, view)}${moves(ui, view)}
    <div class="opponents">${others.map((c) => clan(ui, view, c))}</div>${mine}</div>`;
}

export const css = `
.cw { display: grid; gap: .8rem; }
.cw .row { align-items: flex-start; }
.cw .card { width: 6.6rem; height: auto; min-height: 4.6rem; padding: .3rem .25rem; font-size: .78rem; line-height: 1.15;
  text-align: center; justify-content: space-between; overflow-wrap: anywhere; hyphens: auto; }
.cw .card b { font-weight: 700; }
.cw .card small { font-size: .66rem; line-height: 1.15; }
.cw-slot { display: inline-flex; flex-direction: column; align-items: stretch; gap: .2rem; }
.cw-slot .btn { font-size: .72rem; padding: .15rem .3rem; }
.cw-hand { display: flex; flex-wrap: wrap; gap: .5rem 1.2rem; }
.cw-group .stat { margin-bottom: .15rem; }
.cw-chip { display: inline-block; font-size: .78rem; padding: .1rem .45rem; border-radius: .8rem; background: #f1ede6;
  border: 1px solid var(--line); }
.cw-chip.negated { text-decoration: line-through; color: var(--muted); }
.cw-head .row { gap: .4rem 1rem; }
.cw .opponents { grid-template-columns: repeat(auto-fit, minmax(19rem, 1fr)); }
.cw .cw-units .card { width: 6rem; min-height: 3.8rem; font-size: .7rem; }
.cw .cw-village .card { width: 4rem; font-size: 1.4rem; justify-content: center; }
.cw-combat { border-color: var(--red); }
.cw-sides { display: flex; flex-wrap: wrap; gap: .8rem; align-items: center; }
.cw-score { display: grid; justify-items: center; font-size: 1.6rem; padding: 0 .6rem; }
.cw-score .stat { font-size: .75rem; }
.cw-moves .btn { font-weight: 600; }
.cw-final { margin: 0; padding-left: 1.2rem; }
@media (max-width: 760px) {
  .cw .card { width: 5.6rem; height: auto; min-height: 4.2rem; font-size: .68rem; }
  .cw .opponents { grid-template-columns: 1fr; }
  .cw .cw-village .card { width: 3.4rem; }
}
`;
