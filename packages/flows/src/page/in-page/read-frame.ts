/**
 * What one frame shows, read the way a person reads a login page (see FrameReading). It runs inside the
 * page: bundled with the modules it imports into one function's source (see bundle.ts). Each part of the
 * page is read by a module of its own; this one puts their readings together.
 */
import type { FrameReading } from "../read-page";
import { readChooser } from "./chooser";
import { readContext, type StepWords } from "./frame-context";
import { readIdentifier } from "./identifier-field";
import type { FormField } from "./kit";
import { readOpener, readOtherMethod } from "./method";
import { readPassword } from "./password-field";
import { readInterstitial, readQuestion, readTerms, readVerify } from "./person-steps";
import { readSecondFactor } from "./second-factor";
import { readSignedIn, signedInEvidence } from "./signed-in";
import { readSubmit } from "./submit-control";
import { words } from "@authsvc/contracts/src/words/reader-words";

export function readFrame(
  identifier: string,
  extraKeys: string[],
  signOut: { labels: string; address: string },
  stepWords: StepWords,
  methodWords: { password: string; otherWay: string },
): Omit<FrameReading, "captcha"> {
  const frame = readContext({ identifier, extraKeys, signOut, stepWords, methodWords });
  const { kit, all, clickables, anyPassword, pageText } = frame;
  const { pathOf } = kit;

  const { signedIn, signOutShown } = readSignedIn(frame);
  const { password, passwordCandidates } = readPassword(frame, signOutShown);
  const { identifierEl, ambiguous } = readIdentifier(frame, password, passwordCandidates);
  const anchor: Element | null = password ?? identifierEl;
  const { submit, remember } = readSubmit(frame, anchor);
  const consent = kit.consentButton(all, clickables);
  const opener = readOpener(frame, anchor);
  const otherMethod = readOtherMethod(frame, identifierEl);
  const interstitial = readInterstitial(frame);
  const { otpPrompt, otpFields, otpSubmit, codeBeside } = readSecondFactor(frame, password);
  const { questionField, question } = readQuestion(frame, { password, otpPrompt, signedIn });
  const chooser = readChooser(frame, { otpPrompt, questionField, signedIn });
  const verify = readVerify(frame, { otpPrompt, questionField, chooser, signedIn });
  const terms = readTerms(frame, { otpPrompt, questionField });
  const { signOutHeld, nameShown } = signedInEvidence(frame, signedIn);

  const extraFields = all.filter(
    (el): el is FormField => el !== identifierEl && el !== password && kit.isFormField(el),
  );
  const extras = Object.fromEntries(extraKeys.map((key) => [key, pathOf(kit.fieldFor(key, extraFields))]));
  const invalid = [identifierEl, password].find((el) => el && el.value !== "" && !el.validity.valid);
  return {
    password: pathOf(password),
    identifier: pathOf(identifierEl),
    identifierFilled: !!identifierEl && identifier.length > 0 && identifierEl.value === identifier,
    submit: pathOf(submit),
    remember: pathOf(remember),
    opener: pathOf(opener),
    otherMethod,
    consent: pathOf(consent),
    interstitial: pathOf(interstitial),
    signedIn: pathOf(signedIn),
    signOutHeld,
    nameShown,
    otpPrompt,
    otp: otpPrompt ? otpFields.map((el) => pathOf(el)!) : [],
    otpSubmit: pathOf(otpSubmit),
    codeBeside: pathOf(codeBeside),
    confirmByEmail: !anyPassword && words.confirmByEmail.test(pageText),
    // A page that shows an account (a sign-out control) is signed in, whatever it says of approvals.
    approvalPrompt: !anyPassword && !otpPrompt && !signedIn && new RegExp(stepWords.approval, "i").test(pageText),
    question,
    chooser,
    verify,
    terms,
    text: pageText,
    messages: kit.messages(all),
    validation: invalid ? kit.validation(invalid, null) : null,
    storage: kit.storage(),
    url: location.href,
    extras,
    ambiguous: ambiguous.map((el) => ({
      label: (kit.labelTexts(el)[0] ?? el.getAttribute("placeholder") ?? el.getAttribute("aria-label") ?? "").slice(
        0,
        80,
      ),
      name: el.name || el.id,
    })),
  };
}
