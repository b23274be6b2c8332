import { LoginFlowError } from "../flow-error";
import { consentClick, FormSearch, openerClick } from "../page/form-search";
import { mergeSignals, scanPage } from "../page/scan-page";
import { type Next, watchPage } from "../page/watch-page";
import { fillAndSubmit } from "./fill-form";
import type { LoginRun } from "./login-run";
import { UsernameFirst } from "./username-first";

// How long a method control just clicked is not clicked again while its page may still be on its way.
const METHOD_SETTLE_MS = 1500;

/**
 * Finds the login form the way a person would and submits the password; throws when it cannot. On the way:
 * a cookie banner accepted, a username-first step (username-first.ts), the site's way to the password when
 * it asks for its own method first, a "Log in" link followed.
 */
export async function findAndSubmit(run: LoginRun): Promise<void> {
  const search = new FormSearch();
  const usernameFirst = new UsernameFirst(run);
  let consentClicks = 0;
  let openerClicks = 0;
  let methodClicks = 0;
  let lastMethod = null as { key: string; at: number } | null;
  return watchPage(run.page, {
    deadline: run.deadline,
    quiet: false,
    clock: "beforeLook",
    read: () => scanPage(run.page, run.values.identifier, run.extraKeys),
    decide: async (scans): Promise<Next<void>> => {
      const signals = mergeSignals(scans);
      const login = scans.find((s) => s.reading.password) ?? null;
      const identifierOnly = login ? null : (scans.find((s) => s.reading.identifier) ?? null);
      const consent = consentClick(scans);
      if (consent && consentClicks < 2) {
        consentClicks++;
        await run.perform(consent, "accept cookie banner");
        search.progressed();
        return "again";
      }
      if (login) {
        if (!run.hasPassword) {
          throw new LoginFlowError(
            "form_not_found",
            "the page asks for a password and the request gave none; this method needs a page that sends a code or link",
          );
        }
        // A password sent without the username the form asks for would only come back as a wrong password.
        if (login.reading.identifier && !run.hasIdentifier) throw missingIdentifier();
        // Several fields the username could go in, and nothing tells which: a guess refused would read as a wrong password.
        if (login.reading.ambiguous.length > 0 && run.hasIdentifier) throw ambiguousForm(login.reading.ambiguous);
        return { verdict: await fillAndSubmit(run, login, scans) };
      }
      if (identifierOnly && !run.hasIdentifier) throw missingIdentifier();
      // Email (or phone) only, and no password to give: this form asks the site to send a code or link.
      if (identifierOnly && !run.hasPassword) return { verdict: await fillAndSubmit(run, identifierOnly, scans) };
      if (identifierOnly) {
        const next = await usernameFirst.shown(identifierOnly, signals);
        if (next === "again") search.progressed();
        if (next) return next;
      } else {
        // A site that asks for its own method first (a passkey: the browser's authenticator answered "none"
        // at once): its way to the password, at once. One that names the password before "Try another way".
        const method = run.hasPassword
          ? (scans.find((s) => s.reading.otherMethod?.password) ?? scans.find((s) => s.reading.otherMethod))
          : undefined;
        if (method && methodClicks < 3) {
          const { path, password } = method.reading.otherMethod!;
          // The control just clicked, read again from a document that is being replaced (it led to another
          // page): not clicked twice while the next page comes.
          const key = `${run.page.url()} ${method.key} ${JSON.stringify(path)}`;
          if (lastMethod?.key === key && Date.now() - lastMethod.at < METHOD_SETTLE_MS) {
            return "wait";
          }
          methodClicks++;
          lastMethod = { key, at: Date.now() };
          // Before the password, a fault (the page went on meanwhile) only means the page changed: read it again.
          await run
            .perform(
              { action: "click", purpose: "method", frame: method.key, path },
              password ? "choose to sign in with the password" : "ask for another way to sign in",
            )
            .catch(() => false);
          search.progressed();
          return "again";
        }
        const opener = openerClick(scans);
        if (opener && openerClicks < 2 && search.openerDue()) {
          openerClicks++;
          await run.perform(opener, "open the login form");
          search.progressed();
          return "again";
        }
      }
      if (search.overdue()) {
        throw new LoginFlowError(
          "form_not_found",
          usernameFirst.sent > 0
            ? "the site took the username but never asked for the password"
            : "no username and password form was found on the page",
        );
      }
      return "wait";
    },
    timeUp: () => {
      throw run.deadline.expired("looking for the login form");
    },
  });
}

/** `form_ambiguous`: the candidate fields, each named where the caller puts its value (`additionalFields`, by name or label). */
function ambiguousForm(fields: Array<{ label: string; name: string }>): LoginFlowError {
  const named = fields.map((f) => f.label || f.name);
  return new LoginFlowError(
    "form_ambiguous",
    `the login form has ${fields.length} fields the username could go in (${named.map((n) => `"${n}"`).join(", ")}) and nothing tells which; name the others in additionalFields and send again`,
    {
      retryable: false,
      details: fields.map((f) => ({ field: `/additionalFields/${f.name || f.label}`, message: f.label || f.name })),
    },
  );
}

const missingIdentifier = () =>
  new LoginFlowError("form_not_found", "the page asks for a username or email and the request gave none");
