// A rating's history as a line plot in plain SVG: rated games along the bottom, the rating up the side.
import { html } from "./ui.js";

const WIDTH = 360;
const HEIGHT = 170;
const PAD = { left: 50, right: 12, top: 12, bottom: 36 };

// About `count` round values covering [low, high] (steps of 1, 2 or 5 times a power of ten).
export function niceTicks(low, high, count = 4) {
  if (!(high > low)) { low -= 1; high += 1; }
  const rough = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const ticks = [];
  for (let v = Math.floor(low / step) * step; v <= high + step / 2; v += step) ticks.push(Number(v.toFixed(6)));
  return ticks;
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

// `history`: [{at, rating, table}], oldest first; each point links to its game's replay and says when it was.
export function RatingPlot({ history, title }) {
  if (!history.length) return null;
  const values = history.map((p) => p.rating);
  const ticks = niceTicks(Math.min(...values), Math.max(...values));
  const [low, high] = [ticks[0], ticks.at(-1)];
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (history.length === 1 ? innerW / 2 : (i * innerW) / (history.length - 1));
  const y = (v) => PAD.top + innerH - ((v - low) / (high - low)) * innerH;
  const line = history.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const bottom = PAD.top + innerH;
  return html`<svg class="plot" viewBox=${`0 0 ${WIDTH} ${HEIGHT}`} role="img"
    aria-label=${`${title}: rating over ${history.length} rated game${history.length > 1 ? "s" : ""}, now ${values.at(-1).toFixed(1)}`}>
    ${ticks.map((t) => html`<g class="tick">
      <line x1=${PAD.left} x2=${WIDTH - PAD.right} y1=${y(t)} y2=${y(t)} />
      <text x=${PAD.left - 5} y=${y(t) + 4} text-anchor="end">${t.toFixed(Number.isInteger(t) ? 0 : 1)}</text></g>`)}
    <line class="axis" x1=${PAD.left} x2=${PAD.left} y1=${PAD.top} y2=${bottom} />
    <line class="axis" x1=${PAD.left} x2=${WIDTH - PAD.right} y1=${bottom} y2=${bottom} />
    <text class="axis-label" x=${x(0)} y=${bottom + 15} text-anchor=${history.length > 1 ? "start" : "middle"}>1</text>
    ${history.length > 1 && html`<text class="axis-label" x=${x(history.length - 1)} y=${bottom + 15} text-anchor="end">${history.length}</text>`}
    <text class="axis-label" x=${PAD.left + innerW / 2} y=${HEIGHT - 3} text-anchor="middle">rated games</text>
    <text class="axis-label" transform=${`translate(13 ${PAD.top + innerH / 2}) rotate(-90)`} text-anchor="middle">rating</text>
    <path class="line" d=${line} />
    ${history.map((p, i) => html`<a href=${`/t/${encodeURIComponent(p.table)}/replay`}>
      <circle class="point" cx=${x(i)} cy=${y(p.rating)} r="4">
        <title>${`Game ${i + 1}, ${when(p.at)}: rating ${p.rating.toFixed(1)} (table ${p.table}; click for its replay)`}</title>
      </circle></a>`)}
  </svg>`;
}

const LPAD = { left: 64, right: 12, top: 12, bottom: 42 };  // room for a larger font (style.css)

// Several lines over one x axis in plain SVG (each seat's chance of winning, move by move), told apart by colour
// and by dash (style.css: .series-N), named in a legend beside; `marks` are points on a line that link somewhere
// (`onGo(mark)`, when given, follows the link in the page).
// `series`: [{name, points: [[x, y]], marks: [{x, y, href, title}]}]; y runs from `low` to `high`.
export function LinesPlot({ series, title, xLabel, yLabel, low = 0, high = 1, yFormat = String, onGo = null }) {
  const xs = series.flatMap((s) => s.points.map(([px]) => px));
  if (!xs.length) return null;
  const [first, last] = [Math.min(0, ...xs), Math.max(...xs)];
  const width = WIDTH + 60;
  const height = HEIGHT + 30;
  const innerW = width - LPAD.left - LPAD.right;
  const innerH = height - LPAD.top - LPAD.bottom;
  const span = last > first ? last - first : 1;
  const x = (v) => LPAD.left + (last > first ? ((v - first) * innerW) / span : innerW / 2);
  const y = (v) => LPAD.top + innerH - ((v - low) / (high - low)) * innerH;
  const bottom = LPAD.top + innerH;
  const yTicks = niceTicks(low, high, 4).filter((t) => t >= low && t <= high);
  const xTicks = niceTicks(first, last, 5).filter((t) => t >= first && t <= last && Number.isInteger(t));
  const path = (points) => points.map(([px, py], i) => `${i ? "L" : "M"}${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(" ");
  const follow = (mark) => (event) => {
    if (!onGo) return;
    event.preventDefault();
    onGo(mark);
  };
  return html`<figure class="lines-plot">
    <svg class="plot" viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${title}>
      ${yTicks.map((t) => html`<g class="tick">
        <line x1=${LPAD.left} x2=${width - LPAD.right} y1=${y(t)} y2=${y(t)} />
        <text x=${LPAD.left - 5} y=${y(t) + 4} text-anchor="end">${yFormat(t)}</text></g>`)}
      ${xTicks.map((t) => html`<text class="axis-label" x=${x(t)} y=${bottom + 17} text-anchor="middle">${t}</text>`)}
      <line class="axis" x1=${LPAD.left} x2=${LPAD.left} y1=${LPAD.top} y2=${bottom} />
      <line class="axis" x1=${LPAD.left} x2=${width - LPAD.right} y1=${bottom} y2=${bottom} />
      <text class="axis-label" x=${LPAD.left + innerW / 2} y=${height - 3} text-anchor="middle">${xLabel}</text>
      <text class="axis-label" transform=${`translate(15 ${LPAD.top + innerH / 2}) rotate(-90)`} text-anchor="middle">${yLabel}</text>
      ${series.map((s, i) => html`<path class=${`line series-${i}`} d=${path(s.points)}><title>${s.name}</title></path>`)}
      ${series.map((s, i) => (s.marks || []).map((m) => html`<a href=${m.href} onClick=${follow(m)}>
        <circle class=${`mark series-${i}`} cx=${x(m.x)} cy=${y(m.y)} r="4.5"><title>${m.title}</title></circle></a>`))}
    </svg>
    <figcaption><ul class="legend">${series.map((s, i) => html`<li>
      <svg class="swatch" viewBox="0 0 28 10" aria-hidden="true"><line class=${`line series-${i}`} x1="1" x2="27" y1="5" y2="5" /></svg>
      ${s.name}</li>`)}</ul></figcaption>
  </figure>`;
}
