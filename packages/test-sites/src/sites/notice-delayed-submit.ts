import { Router } from "express";
import { page } from "../accounts";

/**
 * A login page that already shows a notice in an alert region before anyone submits, and whose script
 * takes a moment before it posts the form (to the classic login): the notice is not a refusal.
 */
export function noticeDelayedSubmit(): Router {
  const r = Router();
  r.get("/notice/login", (_req, res) => {
    res.type("html").send(
      page(
        "Sign in — Notice",
        `<div class="alert alert-info" role="alert">Please sign in to continue.</div>
<form id="f" method="post" action="/classic/login">
  <label>Username <input name="username" autocomplete="username"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password"></label>
  <button type="submit">Sign in</button>
</form>`,
        `document.getElementById("f").addEventListener("submit", (ev) => {
  ev.preventDefault();
  setTimeout(() => ev.target.submit(), 700);
});`,
      ),
    );
  });
  return r;
}
