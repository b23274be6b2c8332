/**
 * How a login starts when the frame shows no form for it: a "Log in" link or button that leads to the form,
 * or, on a page that offers another method first (a passkey, a code), the control to the password or to the
 * other methods (see method-words.ts in @authsvc/contracts).
 */
import type { FrameReading } from "../read-page";
import type { FrameContext } from "./frame-context";
import { words } from "@authsvc/contracts/src/words/reader-words";

/** The control that leads to the form; `anchor`: the form's password or identifier field, if shown. */
export function readOpener(frame: FrameContext, anchor: Element | null): Element | null {
  const { clickables } = frame;
  const { visible, controlText, best } = frame.kit;
  return anchor
    ? null
    : best(
        clickables.filter((el) => visible(el)),
        (el) => {
          const t = controlText(el);
          if (t.length > 40 || !words.opener.test(t) || words.notSubmit.test(t)) return 0;
          return el instanceof HTMLAnchorElement ? 2 : 3;
        },
        1,
      );
}

/** The control to the password or to the other methods, on a page with no password or identifier field. */
export function readOtherMethod(frame: FrameContext, identifierEl: Element | null): FrameReading["otherMethod"] {
  const { clickables, anyPassword, methodWords } = frame;
  const { visible, controlText, pathOf, best } = frame.kit;
  // The page offers its own method first and the password behind a control: the one that names the
  // password, else the one to the other methods. Not a "Forgot your password?" link.
  const passwordMethod = new RegExp(methodWords.password, "i");
  const otherWay = new RegExp(methodWords.otherWay, "i");
  const notMethod =
    /forgot|reset|change|vergessen|zur[uü]cksetzen|oubli|r[ée]initialiser|olvid|restablecer|esquec|redefinir|dimenticat|reimposta|vergeten|herstellen|忘|잊/i;
  const methodControl =
    anyPassword || identifierEl
      ? null
      : best(
          clickables.filter((el) => visible(el)),
          (el) => {
            const t = controlText(el);
            if (t.length > 60 || notMethod.test(t)) return 0;
            return passwordMethod.test(t) ? 3 : otherWay.test(t) ? 1 : 0;
          },
          1,
        );
  return methodControl
    ? { path: pathOf(methodControl)!, password: passwordMethod.test(controlText(methodControl)) }
    : null;
}
