// The browser client: one page that draws the lobby (/), a table (/t/<id>, /t/<id>/watch) or a replay
// (/t/<id>/replay?seat=N), by its address. It knows no game: each game's drawing comes from its own web.js.
import { render } from "preact";
import { html } from "./ui.js";
import { Lobby } from "./lobby.js";
import { TablePage } from "./table.js";
import { Replay } from "./replay.js";

function route() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "t" && parts[1]) {
    const tableId = decodeURIComponent(parts[1]);
    if (parts[2] === "replay") {
      const seat = new URLSearchParams(location.search).get("seat");
      return html`<${Replay} tableId=${tableId} seat=${seat === null || seat === "" ? null : Number(seat)} />`;
    }
    return html`<${TablePage} tableId=${tableId} watch=${parts[2] === "watch"} />`;
  }
  return html`<${Lobby} />`;
}

render(route(), document.getElementById("app"));
