import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { consentClick, FormSearch, openerClick } from "../page/form-search";
import { mergeSignals, scanPage } from "../page/scan-page";
import { performStep, type StepValues } from "../page/steps";
import { type Next, watchPage } from "../page/watch-page";
import type { SignupInput } from "./signup";
import { bestForm, scanSignup, type SignupScan } from "./signup-scan";

/** Waits for the signup form, accepting a cookie banner and following a "Sign up" link on the way. */
export async function findSignupForm(
  page: Page,
  deadline: Deadline,
  step: (name: string) => void,
  additionalFields: SignupInput["additionalFields"],
): Promise<SignupScan> {
  const values: StepValues = { identifier: "", password: "", additionalFields: additionalFields ?? {} };
  const search = new FormSearch();
  let clicks = 0;
  return watchPage(page, {
    deadline,
    quiet: false,
    clock: "beforeLook",
    read: () => scanSignup(page),
    decide: async (scans): Promise<Next<SignupScan>> => {
      const form = bestForm(scans);
      if (form) return { verdict: form };
      const loginScans = await scanPage(page, "");
      const login = mergeSignals(loginScans);
      const consent = consentClick(loginScans);
      if (consent && clicks < 4) {
        clicks++;
        await performStep(page, consent, values);
        step("accept cookie banner");
        search.progressed();
        return "again";
      }
      const opener = openerClick(scans);
      if (opener && clicks < 4 && search.openerDue()) {
        clicks++;
        step("open the signup form");
        await performStep(page, opener, values);
        search.progressed();
        return "again";
      }
      if (login.captcha) throw new LoginFlowError("captcha_blocked", "the signup page shows a CAPTCHA");
      if (search.overdue()) {
        throw new LoginFlowError(
          "form_not_found",
          login.passwordShown
            ? "the page shows a login form, not a signup form"
            : "no signup form was found on the page",
        );
      }
      return "wait";
    },
    timeUp: () => {
      throw deadline.expired("looking for the signup form");
    },
  });
}
