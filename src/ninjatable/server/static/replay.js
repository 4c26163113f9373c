// A finished game, move by move, as the spectator or one seat saw it; arrow keys step through it. `at`: the step
// to open at (the address's ?at=N: the board after move N), kept in the address as the steps go.
// Once the game is analysed, the decision made at the step shown is drawn beside the board (above it on a phone).
import { useEffect, useState } from "preact/hooks";
import { RecordLink, api, html, loadGame, makeUi, readerHeaders } from "./ui.js";
import { Log, PlainView, ScoreSheet } from "./table.js";
import { TopBar } from "./account.js";
import { RulesButton, RulesPanel, seatNames, withNames } from "./help.js";
import { AnalysisSection, DecisionPanel, replayHref, stepOf, useAnalysis } from "./analysis.js";

export function Replay({ tableId, seat, start = 0 }) {
  const [info, setInfo] = useState(null);
  const [frames, setFrames] = useState(null);
  const [game, setGame] = useState(undefined);
  const [at, setAt] = useState(start);
  const work = useAnalysis(tableId);
  const [error, setError] = useState("");
  const [rulesOpen, setRulesOpen] = useState(false);

  useEffect(() => {
    api(`/api/tables/${encodeURIComponent(tableId)}`).then((state) => {
      setInfo(state.table);
      loadGame(state.table.game).then(setGame);
      document.title = `Replay: ${state.table.title} · ninjatable`;
    }).catch((e) => setError(e.message));
  }, [tableId]);
  useEffect(() => {
    const query = seat === null ? "" : `?seat=${seat}`;
    api(`/api/tables/${encodeURIComponent(tableId)}/replay${query}`, { headers: readerHeaders(tableId) })
      .then((r) => { setFrames(r.frames); setAt((n) => Math.max(0, Math.min(r.frames.length - 1, n))); })
      .catch((e) => setError(e.message));
  }, [tableId, seat]);
  useEffect(() => {
    function key(event) {
      if (!frames) return;
      if (event.key === "ArrowRight") setAt((n) => Math.min(frames.length - 1, n + 1));
      if (event.key === "ArrowLeft") setAt((n) => Math.max(0, n - 1));
      if (event.key === "Home") setAt(0);
      if (event.key === "End") setAt(frames.length - 1);
    }
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, [frames]);
  useEffect(() => {
    if (frames) history.replaceState(null, "", address(tableId, seat, at));
  }, [frames, at]);

  const top = html`<${TopBar} title=${info ? `Replay: ${info.title}` : ""} rated=${Boolean(info && info.rated)} />`;
  if (error) return html`${top}<main class="narrow"><p class="error" role="alert">${error}</p></main>`;
  if (!info || !frames || game === undefined) return html`${top}<main class="narrow"><p>Loading the replay…</p></main>`;
  const frame = frames[at];
  const events = frames.slice(0, at + 1).flatMap((f) => f.events);
  const names = seatNames(info.seats, seat);
  const ui = makeUi({ view: frame.view, legal: [], refused: [], decision: null, me: seat, seatInfo: info.seats,
                      onAction: () => {}, busy: true, events, names });
  const board = game && game.draw ? game.draw(frame.view, ui) : html`<${PlainView} view=${frame.view} />`;
  const analysis = work.state && work.state.status === "done" ? work.state.analysis : null;
  const decision = analysis && analysis.decisions.find((d) => stepOf(d) === at);
  const words = game && game.words;
  // A move of the analysis's lists, followed in the page: the board at that step, the bar in view.
  const go = (step) => {
    setAt(Math.max(0, Math.min(frames.length - 1, step)));
    document.querySelector(".replay-bar").scrollIntoView({ block: "start" });
  };
  return html`${top}
    <main class="table-page replay-page">
      <div class="replay-bar">
        <label for="viewer">Seen by</label>
        <select id="viewer" value=${seat === null ? "" : String(seat)} onChange=${(e) => {
          location.href = address(tableId, e.target.value === "" ? null : Number(e.target.value), 0); }}>
          <option value="">the spectator (public information)</option>
          ${info.seats.map((_, i) => html`<option value=${String(i)}>Player ${i + 1}</option>`)}
        </select>
        <button type="button" class="btn" onClick=${() => setAt(0)} disabled=${at === 0}>« Start</button>
        <button type="button" class="btn" onClick=${() => setAt(Math.max(0, at - 1))} disabled=${at === 0}>◀ Back</button>
        <span class="step" role="status">Move ${at} of ${frames.length - 1}${frame.move ? `: ${withNames(frame.move, names, seat, words)}` : ""}</span>
        <button type="button" class="btn" onClick=${() => setAt(Math.min(frames.length - 1, at + 1))}
          disabled=${at === frames.length - 1}>Next ▶</button>
        <button type="button" class="btn" onClick=${() => setAt(frames.length - 1)}
          disabled=${at === frames.length - 1}>End »</button>
        <input type="range" aria-label="Move" min="0" max=${frames.length - 1} value=${at}
          onInput=${(e) => setAt(Number(e.target.value))} />
      </div>
      ${analysis && html`<div class="replay-decision">${decision
        ? html`<${DecisionPanel} decision=${decision} names=${names} me=${seat} words=${words}
            seenBy=${decision.seat === seat ? null : replayHref(tableId, decision.seat, at)} />`
        : html`<p class="decision-none muted" role="status">${at === 0 ? "The start of the game: no move yet."
          : `Move ${at} was not weighed: its player had no other choice.`}</p>`}</div>`}
      <section class="board" aria-label="The table">
        <div class="table-tools"><${RulesButton} open=${rulesOpen} onToggle=${() => setRulesOpen(!rulesOpen)} /></div>
        ${rulesOpen && html`<${RulesPanel} gameId=${info.game} glossary=${(game && game.glossary) || []} />`}
        <div class="game">${board}</div>
        <p class="links"><${RecordLink} info=${info} />
          <a class="btn" href="/">Lobby</a></p>
        <${AnalysisSection} tableId=${tableId} work=${work} names=${names} me=${seat} words=${words} onGo=${go} />
      </section>
      <aside class="side">
        <${ScoreSheet} view=${frame.view} names=${names} />
        <${Log} events=${events} names=${names} me=${seat} words=${game && game.words} />
      </aside>
    </main>`;
}

// The replay's address: the viewpoint (none: the spectator's) and the step.
function address(tableId, seat, at) {
  const query = new URLSearchParams();
  if (seat !== null) query.set("seat", String(seat));
  if (at) query.set("at", String(at));
  const search = String(query);
  return `/t/${encodeURIComponent(tableId)}/replay${search ? `?${search}` : ""}`;
}
