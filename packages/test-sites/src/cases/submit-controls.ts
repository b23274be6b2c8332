import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const BUTTON_IMAGE =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='90' height='28'%3E%3Crect width='90' height='28' fill='%2306c'/%3E%3C/svg%3E";

// ASP.NET WebForms: one form around the whole page, its state in hidden fields, and controls that post
// the form back naming themselves (__EVENTTARGET, or an image button's name.x).
const webForm = (name: string, header: string, login: string, error?: string) =>
  page(
    "Customer portal",
    `<form method="post" action="${base(name)}/login" id="aspnetForm">
<input type="hidden" name="__EVENTTARGET" value=""><input type="hidden" name="__EVENTARGUMENT" value="">
<input type="hidden" name="__VIEWSTATE" value="dDwtMTA4NzczMzI2Mzs7Pg==">
<header>${header}</header>
<h1>Customer portal</h1>${errorAlert(error)}
<div class="login"><label for="ctl00_Main_txtUser">User name</label> <input id="ctl00_Main_txtUser" name="ctl00$Main$txtUser" type="text">
<label for="ctl00_Main_txtPass">Password</label> <input id="ctl00_Main_txtPass" name="ctl00$Main$txtPass" type="password">
${login}</div>
<footer><a href="${base(name)}/help">Help</a></footer>
</form>`,
    `function __doPostBack(target, argument) {
  const f = document.getElementById("aspnetForm");
  f.__EVENTTARGET.value = target; f.__EVENTARGUMENT.value = argument; f.submit();
}`,
  );

const WEBFORM_FIELDS = { user: "ctl00$Main$txtUser", pass: "ctl00$Main$txtPass" };

/** The login is a LinkButton: a link whose href runs __doPostBack; Enter posts the page without it. */
function aspnetPostback(accounts: Accounts): Router {
  const name = "aspnet-postback";
  return formCase(
    accounts,
    name,
    (error) =>
      webForm(
        name,
        `<input name="ctl00$Header$txtSearch" placeholder="Search"> <a href="javascript:__doPostBack('ctl00$Header$lnkSearch','')">Go</a>`,
        `<a id="ctl00_Main_lnkLogin" class="button" href="javascript:__doPostBack('ctl00$Main$lnkLogin','')"><img src="${BUTTON_IMAGE}" alt="Log in" width="90" height="28"></a>`,
        error,
      ),
    { fields: WEBFORM_FIELDS, sentByLogin: (body) => body.__EVENTTARGET === "ctl00$Main$lnkLogin" },
  );
}

/** The login is an ImageButton (`input type=image`); the header's search button comes first, so Enter searches. */
function imageSubmit(accounts: Accounts): Router {
  const name = "image-submit";
  return formCase(
    accounts,
    name,
    (error) =>
      webForm(
        name,
        `<input name="ctl00$Header$txtSearch" placeholder="Search"> <input type="image" name="ctl00$Header$btnSearch" src="${BUTTON_IMAGE}" alt="Search">`,
        `<input type="image" name="ctl00$Main$btnLogin" id="ctl00_Main_btnLogin" src="${BUTTON_IMAGE}">`,
        error,
      ),
    { fields: WEBFORM_FIELDS, sentByLogin: (body) => "ctl00$Main$btnLogin.x" in body },
  );
}

/** No button at all: "Log in" is a styled span whose click handler sends the form (Enter sends nothing). */
function styledTextSubmit(accounts: Accounts): Router {
  const name = "styled-text-submit";
  return formCase(accounts, name, (error) =>
    page(
      "Sign in",
      `<h1>Sign in</h1>${errorAlert(error)}<form id="f" method="post" action="${base(name)}/login">
<label>Username <input name="username"></label>
<label>Password <input name="password" type="password"></label>
<div class="actions"><span class="btn" id="go" style="cursor:pointer;padding:.4rem 1rem;background:#06c;color:#fff">Log in</span>
<span class="hint">Trouble signing in? Call us.</span></div></form>`,
      `document.getElementById("go").addEventListener("click", () => document.getElementById("f").submit());
document.getElementById("f").addEventListener("submit", (ev) => ev.preventDefault());`,
    ),
  );
}

/** Login forms whose control is not a submit button. */
const submitControls = (accounts: Accounts): Router[] => [
  aspnetPostback(accounts),
  imageSubmit(accounts),
  styledTextSubmit(accounts),
];

const SUBMIT_CONTROL_CASES = ["aspnet-postback", "image-submit", "styled-text-submit"];

export const submitControlCases = defineCase({
  router: ({ accounts }) => submitControls(accounts),
  cases: SUBMIT_CONTROL_CASES.map((name) => standard(name)),
});
