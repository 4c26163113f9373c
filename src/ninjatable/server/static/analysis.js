// The post-game analysis of a finished table (the table page under its "Game over", and the replay): asked for
// with a button, its progress polled, then each player's summary, every seat's chance of winning over the game,
// and the mistakes, each linked to its move in the replay; in the replay, the decision at the step shown.
// The server makes it (server/analyses.py) and sends it to whoever may read the game's record.
import { useEffect, useState } from "preact/hooks";
import { api, html, readerHeaders } from "./ui.js";
import { LinesPlot } from "./plot.js";
import { withNames } from "./help.js";

const POLL_MS = 1500;
const MAX_FAILURES = 5;  // polls in a row that failed before the page stops asking

const making = (state) => Boolean(state && (state.status === "waiting" || state.status === "running"));

// The analysis of a table as the server has it ({status, done, of, analysis}), polled while it is being made;
// `ask()` asks for it.
export function useAnalysis(tableId) {
  const [state, setState] = useState(null);
  const [error, setError] = useState("");
  const [asking, setAsking] = useState(false);
  const [stopped, setStopped] = useState(false);  // it was being made, then was not, and was not kept
  const [round, setRound] = useState(0);  // each ask starts polling afresh
  const path = `/api/tables/${encodeURIComponent(tableId)}/analysis`;
  useEffect(() => {
    let alive = true;
    api(path, { headers: readerHeaders(tableId) })
      .then((s) => alive && setState(s))
      .catch((e) => alive && setError(e.message));
    return () => { alive = false; };
  }, [tableId]);
  const busy = making(state);
  useEffect(() => {
    if (!busy) return undefined;
    let alive = true;
    let timer = null;
    let failures = 0;
    // Asks again every POLL_MS while it is being made; after an error, waits twice as long each time, and
    // gives up after a few (the error stays shown; asking again starts over).
    function poll() {
      api(path, { headers: readerHeaders(tableId) }).then((s) => {
        if (!alive) return;
        failures = 0;
        setError("");
        if (s.status === "none") setStopped(true);
        setState(s);
        if (making(s)) timer = setTimeout(poll, POLL_MS);
      }).catch((e) => {
        if (!alive) return;
        setError(e.message);
        failures += 1;
        if (failures < MAX_FAILURES) timer = setTimeout(poll, POLL_MS * 2 ** failures);
      });
    }
    timer = setTimeout(poll, POLL_MS);
    return () => { alive = false; clearTimeout(timer); };
  }, [tableId, busy, round]);
  async function ask() {
    setRound((n) => n + 1);
    setAsking(true);
    setError("");
    setStopped(false);
    try {
      setState(await api(path, { method: "POST", headers: readerHeaders(tableId) }));
    } catch (e) {
      setError(e.message);
    } finally {
      setAsking(false);
    }
  }
  return { state, error, asking, stopped, ask };
}

// A share of a win as a percentage: 0.123 as "12%" (or "12.3%" with one digit); a negative one with a minus.
export function percent(share, digits = 0) {
  const shown = (share * 100).toFixed(digits);
  return `${Number(shown) < 0 ? "−" : ""}${shown.replace("-", "")}%`;
}

function points(value) {
  const shown = Math.abs(value).toFixed(1);
  return `${value < 0 && shown !== "0.0" ? "−" : ""}${shown} point${shown === "1.0" ? "" : "s"}`;
}

// The replay's address at a move (the frame after it), seen as `seat` sees it (null: the spectator).
export function replayHref(tableId, seat, at) {
  const query = new URLSearchParams();
  if (seat !== null && seat !== undefined) query.set("seat", String(seat));
  query.set("at", String(at));
  return `/t/${encodeURIComponent(tableId)}/replay?${query}`;
}

// The move number a decision is shown at: the replay's step after that move (the record counts moves from 0).
export const stepOf = (decision) => decision.move + 1;

// The analysis section: the button that asks for it, its progress, then the report.
// `names`: each seat's name as the page says it; `me`: the viewer's seat (null: a spectator); `words`: the game's
// card words; `seat`: the replay's viewpoint the links keep; `onGo(step)`: follow a link to a move in the page.
export function AnalysisSection({ tableId, work, names, me, words, seat = me, onGo = null }) {
  const { state, error, asking, stopped, ask } = work;
  const say = (text) => withNames(text, names, me, words);
  let body = null;
  if (state && state.status === "done") {
    body = html`<${Report} analysis=${state.analysis} tableId=${tableId} names=${names} say=${say} seat=${seat}
      onGo=${onGo} />`;
  } else if (making(state)) {
    const text = state.status === "waiting"
      ? `Analysing: waiting for a free bot (0 of ${state.of} decisions)`
      : `Analysing: ${state.done} of ${state.of} decisions`;
    body = html`<div class="analysis-progress" role="status">
      <label for="analysis-progress">${text}</label>
      <progress id="analysis-progress" max=${state.of || 1} value=${state.done}>${text}</progress></div>`;
  } else if (state) {
    body = html`<p>A bot weighs every decision of the game from what its player knew then: the chance of winning
      each move offered, and the moves that cost the most. It takes a minute or so.</p>
      ${stopped && html`<p class="error" role="alert">The analysis stopped before the end; you may ask again.</p>`}
      <p><button type="button" class="btn primary" onClick=${ask} disabled=${asking}>Analyse the game</button></p>`;
  }
  return html`<section class="panel analysis" id="analysis" aria-labelledby="analysis-title">
    <h2 id="analysis-title">Analysis</h2>
    ${!state && !error && html`<p class="muted">Looking for the game's analysis…</p>`}
    ${body}
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

// What a done analysis says: one line per player, the chances over the game, the mistakes.
function Report({ analysis, tableId, names, say, seat, onGo }) {
  const mistakes = analysis.decisions.filter((d) => d.mistake);
  const go = (decision) => (event) => {
    if (!onGo) return;
    event.preventDefault();
    onGo(stepOf(decision));
  };
  const series = names.map((name, s) => ({
    name,
    points: analysis.decisions.map((d) => [stepOf(d), d.chances[s]]),
    marks: mistakes.filter((d) => d.seat === s).map((d) => ({
      x: stepOf(d), y: d.chances[s], href: replayHref(tableId, seat, stepOf(d)), step: stepOf(d),
      title: `Move ${stepOf(d)}: ${name} played ${say(d.label)}, a mistake (click for the replay)`,
    })),
  }));
  return html`
    <div class="scroll"><table class="analysis-seats">
      <thead><tr><th scope="col">Player</th><th scope="col">Decisions</th><th scope="col">Mistakes</th>
        <th scope="col" title="How much of a win a move gave away against the best the bot found, on average">Average cost<br /><small>(share of a win)</small></th></tr></thead>
      <tbody>${analysis.seats.map((s) => html`<tr data-seat=${s.seat}>
        <th scope="row">${names[s.seat]}</th><td>${s.analysed}</td><td>${s.mistakes}</td>
        <td>${percent(s.mean_cost, 1)}</td></tr>`)}</tbody></table></div>
    <h3>Chance of winning, move by move</h3>
    <${LinesPlot} series=${series} xLabel="move" yLabel="chance of winning" yFormat=${(v) => percent(v)}
      onGo=${onGo && ((mark) => onGo(mark.step))}
      title=${`Each player's chance of winning after each decision, over ${analysis.decisions.length} decisions; circles mark mistakes`} />
    <h3>Mistakes</h3>
    ${mistakes.length ? html`<ol class="mistakes">${mistakes.map((d) => {
      const best = d.options[0];
      return html`<li data-move=${stepOf(d)}>
        <a href=${replayHref(tableId, seat, stepOf(d))} onClick=${go(d)}>Move ${stepOf(d)}</a>${": "}
        ${names[d.seat]} played ${say(d.label)}${best && best.action !== d.played
          ? html`; better: <b>${say(best.label)}</b>` : ""}.${" "}
        <span class="cost">Cost: ${percent(d.cost)} of a win${d.score_cost > 0.05 ? `, ${points(d.score_cost)}` : ""}</span></li>`;
    })}</ol>` : html`<p class="muted">No move was judged a mistake.</p>`}
    <p class="note">Each decision was weighed in ${analysis.worlds} deals its player could not tell from the real one.
      A move's cost is how much of a win the best move would have added; a cost near zero or below means the move was
      as good as the best found. A mistake cost a tenth of a win or more, beyond doubt.</p>`;
}

// The decision made at a step of the replay: the options weighed, best first, with their chance of winning and
// expected score; the one played marked, and whether it was a mistake.
// `seenBy`: the replay's address at this step as the deciding seat saw it (when the page shows another view).
export function DecisionPanel({ decision, names, me, words, seenBy = null }) {
  const say = (text) => withNames(text, names, me, words);
  const step = stepOf(decision);
  const top = Math.max(...decision.options.map((o) => o.win), 0.0001);
  return html`<section class=${`panel decision${decision.mistake ? " is-mistake" : ""}`} aria-labelledby="decision-title">
    <h2 id="decision-title">Move ${step}: ${names[decision.seat]} played ${say(decision.label)}
      ${decision.mistake && html` <span class="badge mistake">mistake</span>`}</h2>
    <p class="cost">${decision.cost >= 0.005
      ? `It cost ${percent(decision.cost)} of a win against the best option.`
      : "As good as the best option the bot found."}${seenBy
      && html` <a href=${seenBy}>See the table as ${decision.seat === me ? "you" : names[decision.seat]} saw it</a>`}</p>
    <div class="scroll"><table class="options">
      <thead><tr><th scope="col">Option</th><th scope="col">Chance of winning</th>
        <th scope="col" title="The player's score, on average, where the bot's look-ahead stops">Expected score</th></tr></thead>
      <tbody>${decision.options.map((o, i) => html`<tr class=${`${o.action === decision.played ? "played" : ""}${i === 0 ? " best" : ""}`}
        data-action=${o.label}>
        <th scope="row">${say(o.label)}${o.action === decision.played && html` <span class="tag">played</span>`}${i === 0
          && html` <span class="tag best">best</span>`}</th>
        <td><span class="chance"><span class="bar" style=${`width: ${Math.round((o.win / top) * 100)}%`}></span></span>
          ${percent(o.win)}</td>
        <td>${o.score.toFixed(1)}</td></tr>`)}</tbody></table></div>
  </section>`;
}

// The section with its own polling (the table page's, under "Game over").
export function GameAnalysis(props) {
  const work = useAnalysis(props.tableId);
  return html`<${AnalysisSection} work=${work} ...${props} />`;
}
