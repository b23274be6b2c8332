import { Router } from "express";
import { type Accounts, page } from "../accounts";
import { tokenApi } from "./token-api";

/** Where the app keeps its session, as Firebase Auth's web SDK does: one IndexedDB record, nothing else. */
export const IDB_SESSION = {
  database: "firebaseLocalStorageDb",
  store: "firebaseLocalStorage",
  key: "firebase:authUser:demo-key:[DEFAULT]",
};

const APP = `
const DB = ${JSON.stringify(IDB_SESSION)};
const root = document.getElementById("app");
function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB.database, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(DB.store, { keyPath: "fbase_key" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
async function readToken() {
  const db = await open();
  return new Promise((resolve) => {
    const req = db.transaction(DB.store).objectStore(DB.store).get(DB.key);
    req.onsuccess = () => resolve(req.result ? req.result.value.stsTokenManager.accessToken : null);
    req.onerror = () => resolve(null);
  });
}
async function saveToken(token, user) {
  const db = await open();
  await new Promise((resolve, reject) => {
    const tx = db.transaction(DB.store, "readwrite");
    tx.objectStore(DB.store).put({ fbase_key: DB.key, value: { uid: user, stsTokenManager: { accessToken: token, expirationTime: Date.now() + 3600000 } } });
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
}
function showAccount(name) {
  root.innerHTML = '<h1>Console</h1><p>Signed in as <b id="who"></b></p><button id="logout">Sign out</button>';
  document.getElementById("who").textContent = name;
}
function showLogin() {
  root.innerHTML = '<h1>Sign in to Console</h1><div id="err" role="alert"></div>' +
    '<form id="f"><label>Email <input id="u" type="email" autocomplete="username"></label>' +
    '<label>Password <input id="p" type="password" autocomplete="current-password"></label>' +
    '<button type="submit">Sign in</button></form>';
  document.getElementById("f").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const res = await fetch("/idb/api/login", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: document.getElementById("u").value, password: document.getElementById("p").value }) });
    const body = await res.json();
    if (!res.ok) { document.getElementById("err").textContent = body.error; return; }
    await saveToken(body.token, body.user);
    showAccount(body.user);
  });
}
readToken().then(async (token) => {
  if (token) {
    const res = await fetch("/idb/api/me", { headers: { authorization: "Bearer " + token } });
    if (res.ok) return showAccount((await res.json()).user);
  }
  showLogin();
});
`;

/**
 * A single-page app whose client SDK keeps the session token only in IndexedDB (Firebase Auth's web SDK,
 * and others): no cookie, no localStorage. A returned session without IndexedDB does not sign in.
 */
export function indexedDbToken(accounts: Accounts): Router {
  const r = Router();
  r.get(["/idb/login", "/idb/console"], (_req, res) => {
    res.type("html").send(page("Console", `<div id="app"><p>Loading…</p></div>`, APP));
  });
  r.use(tokenApi(accounts, "idb", "Wrong email or password."));
  return r;
}
