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
