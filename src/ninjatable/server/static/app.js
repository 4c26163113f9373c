// The browser client: one page that draws the lobby (/), a table (/t/<id>, /t/<id>/watch), a replay
// (/t/<id>/replay?seat=N&at=M), the account pages (/login, /signup, /account), a person (/people/<name>) or a
// leaderboard (/leaderboard, /leaderboard/<game>), by its address. It knows no game: each game's drawing comes
// from its own web.js.
import { render } from "preact";
import { html } from "./ui.js";
import { Lobby } from "./lobby.js";
import { TablePage } from "./table.js";
import { Replay } from "./replay.js";
import { AccountPage, AuthPage } from "./account.js";
import { PersonPage } from "./people.js";
import { Leaderboard, LeaderboardIndex } from "./leaderboard.js";

// A part of the address as written (a malformed escape is kept as it is).
function decoded(part) {
  try { return decodeURIComponent(part); } catch { return part; }
}

function tableRoute(parts) {
  const tableId = decoded(parts[1]);
  if (parts[2] === "replay") {
    const query = new URLSearchParams(location.search);
    const seat = query.get("seat");
    const at = Number(query.get("at")) || 0;
    return html`<${Replay} tableId=${tableId} seat=${seat === null || seat === "" ? null : Number(seat)}
      start=${Number.isInteger(at) && at > 0 ? at : 0} />`;
  }
  return html`<${TablePage} tableId=${tableId} watch=${parts[2] === "watch"} />`;
}

function route() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "t" && parts[1]) return tableRoute(parts);
  if (parts[0] === "login" || parts[0] === "signup") return html`<${AuthPage} mode=${parts[0]} />`;
  if (parts[0] === "account") return html`<${AccountPage} />`;
  if (parts[0] === "people" && parts[1]) return html`<${PersonPage} name=${decoded(parts.slice(1).join("/"))} />`;
  if (parts[0] === "leaderboard") {
    return parts[1] ? html`<${Leaderboard} game=${decoded(parts[1])} />` : html`<${LeaderboardIndex} />`;
  }
  return html`<${Lobby} />`;
}

render(route(), document.getElementById("app"));
