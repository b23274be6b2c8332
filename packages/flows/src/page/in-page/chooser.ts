/** A chooser of the account, profile or organization to go on as (after the password). */
import type { FrameReading, SelectorPath } from "../read-page";
import type { FrameContext } from "./frame-context";
import { sendsStep, shownLabel } from "./step-controls";

export function readChooser(
  frame: FrameContext,
  shown: { otpPrompt: boolean; questionField: Element | null; signedIn: Element | null },
): FrameReading["chooser"] {
  const { kit, all, inputs, clickables, anyPassword, pageText, stepWords, signOut } = frame;
  const { otpPrompt, questionField, signedIn } = shown;
  const { visible, text, controlText, pathOf } = kit;
  // A chooser: the account, profile or organization to go on as, one radio or one control each.
  let chooser: FrameReading["chooser"] = null;
  const chooserWords = new RegExp(stepWords.chooser, "i");
  if (!anyPassword && !otpPrompt && !questionField && !signedIn && chooserWords.test(pageText)) {
    const heading = all.find(
      (el) =>
        /^(H[1-6]|LEGEND|P|LABEL|DIV|SPAN)$/.test(el.tagName) &&
        el.childElementCount <= 2 &&
        visible(el) &&
        chooserWords.test(text(el)),
    );
    const skip = new RegExp(
      `${signOut.labels}|help|privacy|terms|cookie|forgot|cancel|back|hilfe|datenschutz|aide|ayuda|ajuda|aiuto`,
      "i",
    );
    const radios = inputs.filter(
      (el) => el.type === "radio" && !el.disabled && (visible(el) || [...(el.labels ?? [])].some(visible)),
    );
    let options: Array<{ label: string; path: SelectorPath; radio: boolean }>;
    let submit: SelectorPath | null = null;
    if (radios.length >= 2) {
      options = radios.map((el) => {
        const label = [...(el.labels ?? [])].find(visible);
        return {
          label: (kit.labelTexts(el)[0] ?? el.value).trim().slice(0, 120),
          path: pathOf(visible(el) ? el : (label ?? el))!,
          radio: true,
        };
      });
      submit = pathOf(sendsStep(frame, radios[0]!));
    } else {
      // The controls after the words, in the nearest block that holds two or more of them.
      let scope: Element | null = heading?.parentElement ?? null;
      const after = (el: Element) =>
        !heading || !!(heading.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
      const choices = (root: Element) =>
        clickables.filter(
          (el) =>
            root.contains(el) &&
            visible(el) &&
            after(el) &&
            controlText(el).length > 0 &&
            controlText(el).length <= 120 &&
            !skip.test(controlText(el)),
        );
      while (scope && choices(scope).length < 2) scope = scope.parentElement;
      const found = scope ? choices(scope) : [];
      // The options are the controls of one list (the accounts); a link beside it ("Use another sign-in") is not one.
      const groups = new Map<Element | null, Element[]>();
      for (const el of found) {
        const group = el.closest("ul, ol, [role=list], [role=listbox], [role=radiogroup], [role=menu], table");
        groups.set(group, [...(groups.get(group) ?? []), el]);
      }
      const listed = [...groups.entries()]
        .filter(([group, els]) => group && els.length >= 2)
        .sort((a, b) => b[1].length - a[1].length)[0]?.[1];
      options = (listed ?? found).map((el) => ({
        label: shownLabel(frame, el).slice(0, 120),
        path: pathOf(el)!,
        radio: false,
      }));
    }
    const labels = new Set(options.map((o) => o.label));
    if (options.length >= 2 && options.length <= 20 && labels.size === options.length && !labels.has("")) {
      chooser = { prompt: (heading ? text(heading) : pageText).slice(0, 300), options, submit };
    }
  }
  return chooser;
}
