// Accounts: the top bar every page shares, the log-in and sign-up pages, /account, and a person's own tables.
import { useEffect, useState } from "preact/hooks";
import { api, html } from "./ui.js";

let accountAnswer = null;

// The logged-in person's name, or null for a guest (asked once per page).
export function currentAccount() {
  if (!accountAnswer) accountAnswer = api("/api/account").then((a) => a.name || null).catch(() => null);
  return accountAnswer;
}

// The logged-in name for a component: undefined while the server is asked, then the name or null.
export function useAccount() {
  const [name, setName] = useState(undefined);
  useEffect(() => {
    let alive = true;
    currentAccount().then((n) => { if (alive) setName(n); });
    return () => { alive = false; };
  }, []);
  return name;
}

export const personHref = (name) => `/people/${encodeURIComponent(name)}`;
export const tableHref = (id) => `/t/${encodeURIComponent(id)}`;

// A page to come back to after logging in: a path on this site only ("/…", never "//…" or another origin).
export function safeNext(value) {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return null;
  if (/[\u0000-\u001f\\]/.test(value)) return null;
  try {
    return new URL(value, location.origin).origin === location.origin ? value : null;
  } catch {
    return null;
  }
}

// /login or /signup, coming back to `next` (this page if not given) afterwards.
export function authHref(kind, next = location.pathname + location.search) {
  const back = safeNext(next);
  const here = ["/login", "/signup"].includes(location.pathname);
  return back && !here ? `/${kind}?next=${encodeURIComponent(back)}` : `/${kind}`;
}

async function logOut() {
  await api("/api/account/logout", { method: "POST" }).catch(() => {});
  location.href = location.pathname === "/account" ? "/" : location.href;
}

function AccountLinks({ name }) {
  if (name === undefined) return null;
  if (!name) {
    return html`<nav class="account-links" aria-label="Account">
      <a href="/leaderboard">Leaderboards</a>
      <a href=${authHref("login")}>Log in</a><a href=${authHref("signup")}>Sign up</a></nav>`;
  }
  return html`<nav class="account-links" aria-label="Account">
    <a class="me" href=${personHref(name)} title=${name}>${name}</a>
    <a href="/leaderboard">Leaderboards</a>
    <button type="button" class="linkish" onClick=${logOut}>Log out</button></nav>`;
}

// The bar on top of every page: the brand, the page's title, whatever the page adds, and the account's links.
export function TopBar({ title = "", rated = false, hints = false, tagline = "", children }) {
  const name = useAccount();
  return html`<header class="top"><a class="brand" href="/">ninjatable</a>
    ${title && html`<span class="title">${title}${rated && html` <span class="badge rated">Rated</span>`}${hints
      && html` <span class="badge hints" title="A player may ask the table's bot which move it would make">Hints
      on</span>`}</span>`}
    ${tagline && html`<span class="tagline">${tagline}</span>`}
    <span class="top-end">${children}<${AccountLinks} name=${name} /></span></header>`;
}

// /login and /signup: a name and a password; afterwards the `next` page, or the person's own page.
export function AuthPage({ mode }) {
  const signup = mode === "signup";
  const next = safeNext(new URLSearchParams(location.search).get("next"));
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const current = useAccount();
  useEffect(() => { document.title = `${signup ? "Sign up" : "Log in"} · ninjatable`; }, [signup]);

  async function submit(event) {
    event.preventDefault();
    setError("");
    setBusy(true);
    try {
      const answer = await api(`/api/account/${signup ? "signup" : "login"}`, {
        method: "POST", body: { name: name.trim(), password } });
      location.href = next || personHref(answer.name);
    } catch (e) {
      setError(e.message);
      setBusy(false);
    }
  }
  const other = signup ? ["login", "Already have an account?", "Log in"] : ["signup", "No account yet?", "Sign up"];
  const otherHref = next ? `/${other[0]}?next=${encodeURIComponent(next)}` : `/${other[0]}`;
  return html`<${TopBar} />
    <main class="narrow"><section class="panel">
      <h1>${signup ? "Sign up" : "Log in"}</h1>
      ${current && html`<p class="muted">You are logged in as <a href=${personHref(current)}>${current}</a>.</p>`}
      ${signup && html`<p>An account keeps your tables, your games and your ratings under one name.</p>`}
      <form class="create" onSubmit=${submit}>
        <div class="field"><label for="auth-name">Name</label>
          <input id="auth-name" required maxlength="32" autocomplete="username" value=${name}
            onInput=${(e) => setName(e.target.value)} /></div>
        <div class="field"><label for="auth-password">Password</label>
          <input id="auth-password" type="password" required minlength=${signup ? 8 : undefined} maxlength="256"
            autocomplete=${signup ? "new-password" : "current-password"} value=${password}
            onInput=${(e) => setPassword(e.target.value)} />
          ${signup && html`<small>At least 8 characters.</small>`}</div>
        ${error && html`<p class="error" role="alert">${error}</p>`}
        <div class="links"><button class="btn primary" type="submit" disabled=${busy}>${signup ? "Sign up" : "Log in"}</button></div>
      </form>
      <p>${other[1]} <a href=${otherHref}>${other[2]}</a></p>
    </section></main>`;
}

// /account: the person's tables and offers, a new password, logging out.
export function AccountPage() {
  const name = useAccount();
  useEffect(() => { document.title = "Your account · ninjatable"; }, []);
  if (name === undefined) return html`<${TopBar} /><main class="narrow"><p>Loading…</p></main>`;
  if (!name) {
    return html`<${TopBar} /><main class="narrow"><section class="panel"><h1>Your account</h1>
      <p>You are not logged in. <a href=${authHref("login", "/account")}>Log in</a> or
        <a href=${authHref("signup", "/account")}>sign up</a>.</p></section></main>`;
  }
  return html`<${TopBar} />
    <main class="narrow account">
      <section class="panel"><h1>Your account</h1>
        <p>Logged in as <a href=${personHref(name)}>${name}</a> (your page: games, ratings).</p>
        <p class="links"><button type="button" class="btn" onClick=${logOut}>Log out</button></p></section>
      <${MyTables} name=${name} />
      <${ChangePassword} />
    </main>`;
}

function ChangePassword() {
  const [old, setOld] = useState("");
  const [fresh, setFresh] = useState("");
  const [said, setSaid] = useState(["", ""]);
  async function change(event) {
    event.preventDefault();
    try {
      await api("/api/account/password", { method: "POST", body: { old_password: old, new_password: fresh } });
      setOld(""); setFresh("");
      setSaid(["ok", "Your password is changed; your other sessions are logged out."]);
    } catch (e) { setSaid(["error", e.message]); }
  }
  return html`<section class="panel"><h2>Change your password</h2>
    <form class="create" onSubmit=${change}>
      <div class="field"><label for="old-password">Current password</label>
        <input id="old-password" type="password" required autocomplete="current-password" value=${old}
          onInput=${(e) => setOld(e.target.value)} /></div>
      <div class="field"><label for="new-password">New password</label>
        <input id="new-password" type="password" required minlength="8" maxlength="256" autocomplete="new-password"
          value=${fresh} onInput=${(e) => setFresh(e.target.value)} /></div>
      ${said[1] && html`<p class=${said[0] === "ok" ? "ok" : "error"} role=${said[0] === "ok" ? "status" : "alert"}>${said[1]}</p>`}
      <div class="links"><button class="btn primary" type="submit">Change the password</button></div>
    </form></section>`;
}

// The logged-in person's unfinished tables and the seats offered to them after a "Play again".
export function MyTables({ name }) {
  const [mine, setMine] = useState(null);
  const [error, setError] = useState("");
  const load = () => api("/api/account/tables").then(setMine).catch((e) => setError(e.message));
  useEffect(() => { load(); }, [name]);
  if (error) return html`<section class="panel"><p class="error" role="alert">${error}</p></section>`;
  if (!mine) return html`<section class="panel"><p>Loading your tables…</p></section>`;
  return html`
    <section class="panel my-tables" aria-label="Your tables"><h2>Your tables</h2>
      ${mine.playing.length === 0 ? html`<p class="muted">No unfinished tables.</p>` : html`
        <ul class="tables rows">${mine.playing.map((t) => html`<${PlayingRow} table=${t} />`)}</ul>`}
    </section>
    <section class="panel offers" aria-label="Rematch offers"><h2>Rematch offers</h2>
      ${mine.offers.length === 0 ? html`<p class="muted">No seat is kept for you.</p>` : html`
        <ul class="tables rows">${mine.offers.map((o) => html`<${OfferRow} offer=${o} name=${name} onDeclined=${load} />`)}</ul>`}
    </section>`;
}

function PlayingRow({ table }) {
  return html`<li class=${table.your_move ? "your-move" : ""}>
    <span><strong>${table.title}</strong> · ${table.players} players · ${table.status} · you are Player ${table.seat + 1}
      ${table.rated && html` <span class="badge rated">Rated</span>`}
      ${table.your_move && html` <span class="badge turn">your move</span>`}</span>
    <span class="links"><a class="btn" href=${tableHref(table.id)}>${table.your_move ? "Play" : "Open"}</a></span></li>`;
}

function OfferRow({ offer, name, onDeclined }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function accept() {
    setBusy(true);
    try {
      const joined = await api(`/api/tables/${encodeURIComponent(offer.id)}/join`, { method: "POST", body: { seat: offer.seat } });
      location.href = tableHref(offer.id);
    } catch (e) { setError(e.message); setBusy(false); }
  }
  async function decline() {
    setBusy(true);
    try {
      await api(`/api/tables/${encodeURIComponent(offer.id)}/decline`, { method: "POST" });
      onDeclined();
    } catch (e) { setError(e.message); setBusy(false); }
  }
  return html`<li>
    <span><strong>${offer.title}</strong> · a rematch of <a href=${`${tableHref(offer.from)}/replay`}>your game</a>;
      Player ${offer.seat + 1} is kept for you</span>
    <span class="links">
      <button type="button" class="btn primary" disabled=${busy} onClick=${accept}>Accept</button>
      <button type="button" class="btn" disabled=${busy} onClick=${decline}>Leave it open</button></span>
    ${error && html`<p class="error" role="alert">${error}</p>`}</li>`;
}
