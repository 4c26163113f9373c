// Help at the table: the Rules panel (rules, glossary, the decision now), players' names in the log, sounds.
import { useEffect, useState } from "preact/hooks";
import { api, html } from "./ui.js";

const rulesOf = {};

// A game's rules from the server, fetched once per page.
function fetchRules(gameId) {
  if (!(gameId in rulesOf)) rulesOf[gameId] = api(`/api/games/${encodeURIComponent(gameId)}/rules`);
  return rulesOf[gameId];
}

// The button that opens and closes the Rules panel.
export function RulesButton({ open, onToggle }) {
  return html`<button type="button" class="btn rules-btn" aria-expanded=${open} aria-controls="rules-panel"
    onClick=${onToggle}>${open ? "Close the rules" : "Rules"}</button>`;
}

// The Rules panel: what is asked now, what the page's marks mean, and the rules as the server renders them.
export function RulesPanel({ gameId, glossary = [], now = "" }) {
  const [rules, setRules] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => { fetchRules(gameId).then(setRules).catch((e) => setError(e.message)); }, [gameId]);
  return html`<section class="panel rules-panel" id="rules-panel" aria-label="Rules">
    ${now && html`<p class="now"><strong>Now:</strong> ${now}</p>`}
    ${glossary.length > 0 && html`<h2>What the table shows</h2>
      <dl class="glossary">${glossary.map(([term, meaning]) => html`<dt>${term}</dt><dd>${meaning}</dd>`)}</dl>`}
    <h2>Rules${rules ? `: ${rules.title}` : ""}</h2>
    ${rules ? html`<div class="rules-text" dangerouslySetInnerHTML=${{ __html: rules.html }}></div>`
      : html`<p class=${error ? "error" : "muted"}>${error || "Loading the rules…"}</p>`}
  </section>`;
}

// The "Now:" line: the decision in front of the seat, and why the greyed moves are refused.
export function nowLine(update, shown, seat, names) {
  if (!update || update.status !== "playing") return update && update.status === "finished" ? "the game is over." : "";
  if (seat === null) return "you are watching.";
  if (!shown.decision) return `waiting for ${update.view.to_move.map((s) => names[s]).join(", ")}.`;
  const reasons = [...new Set((shown.refused || []).map((r) => r.reason).filter(Boolean))];
  return `${shown.decision.prompt}.${reasons.length ? ` Greyed: ${reasons.join("; ")}.` : ""}`;
}

// Each seat's name as the log says it: "You" for the viewer, a person's name, "Bot 2" for a bot.
export function seatNames(seatInfo, me) {
  const names = seatInfo.map((s, i) => {
    if (i === me) return "You";
    if (s && s.kind === "person" && s.name) return s.name;
    if (s && s.kind === "bot") return `Bot ${i + 1}`;
    return `Player ${i + 1}`;
  });
  return names.map((n, i) => (names.filter((m) => m === n).length > 1 && i !== me ? `${n} (P${i + 1})` : n));
}

// "plays" as "play" after "You" (the few irregular verbs the games' logs use, then the rule).
function youVerb(verb) {
  const irregular = { is: "are", has: "have", does: "do", goes: "go" };
  if (verb in irregular) return irregular[verb];
  if (/(ss|sh|ch|x)es$/.test(verb)) return verb.slice(0, -2);
  return /[^s]s$/.test(verb) ? verb.slice(0, -1) : verb;
}

// An event's text with "Player N" as that seat's name ("you" for the viewer, the verb agreeing), and the game's
// card words (its web.js `words`) when it has them.
export function withNames(text, names, me, words = null) {
  let out = text.replace(/\bPlayer (\d+)('s)?/g, (whole, n, owner) => {
    const s = Number(n) - 1;
    if (s < 0 || s >= names.length) return whole;
    if (s === me) return owner ? "your" : "you";
    return `${names[s]}${owner || ""}`;
  });
  out = out.replace(/(^|[.:;!] )you (\w+)( .*? and (\w+))?/, (all, lead, verb, rest, second) => {
    const tail = rest ? rest.replace(new RegExp(` and ${second}$`), ` and ${youVerb(second)}`) : "";
    return `${lead}You ${youVerb(verb)}${tail}`;
  });
  out = out.replace(/(^|[.:;!] )your\b/g, "$1Your");
  return words ? words(out) : out;
}

const SOUND_KEY = "ninjatable:sound";

// Whether this browser plays the table's sounds (off until the player turns them on), and its switch.
export function useSound() {
  const [on, setOn] = useState(() => localStorage.getItem(SOUND_KEY) === "on");
  function toggle() {
    localStorage.setItem(SOUND_KEY, on ? "off" : "on");
    if (!on) playTone("move");  // turned on by a tap: the browser lets the page's sound start now
    setOn(!on);
  }
  return [on, toggle];
}

export function SoundToggle({ on, onToggle }) {
  return html`<button type="button" class="btn sound-btn" aria-pressed=${on} onClick=${onToggle}
    title="A short tone when it becomes your move, and the gong at a live table">Sound: ${on ? "on" : "off"}</button>`;
}

let audio = null;

// A short tone made by an oscillator: "move" (your move, a light two-note chime) or "gong" (low, fading slowly).
export function playTone(kind) {
  try {
    audio = audio || new AudioContext();
    const notes = kind === "gong" ? [[110, 0, 1.4], [165, 0, 1.0]] : [[660, 0, 0.18], [880, 0.12, 0.22]];
    for (const [frequency, delay, length] of notes) {
      const start = audio.currentTime + delay;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = kind === "gong" ? "triangle" : "sine";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.001, start);
      gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.001, start + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start);
      oscillator.stop(start + length + 0.05);
    }
  } catch (error) {
    console.warn("no sound:", error);
  }
}
