import { randomBytes, randomInt } from "node:crypto";
import type { Request, Response, Router } from "express";
import { type Accounts, page, readCookie } from "../accounts";
import { base, formCase, plainForm } from "./kit";
import { captchaBlocked, defineCase } from "./login-case";

const COOKIE = "img_captcha";

/** How a site draws the challenge: its markup around the image's address, the field's name and its refusal. */
export interface ChallengeLook {
  markup: (src: string) => string;
  field: string;
  refusal: string;
}
const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** What the image served last showed: what a person looking at it reads (`GET /__fixture/image-captcha`). */
export const imageCaptchaShown = { latest: "" };

export const IMAGE_CAPTCHA_REFUSAL = "The characters you typed did not match the image. Please try again.";

const DEFAULT_LOOK: ChallengeLook = {
  markup: (src) => `<p><img alt="" src="${src}" width="180" height="60"></p>
  <label>Type the characters in the image <input name="captcha_code" autocomplete="off"></label>`,
  field: "captcha_code",
  refusal: IMAGE_CAPTCHA_REFUSAL,
};

/**
 * The same challenge as sites draw it without ever saying "captcha": an image hidden from screen readers, a
 * field whose label asks for what the picture shows (named for something else), a "new image" control, in
 * English and German. Recognised by its shape, never submitted empty.
 */
const PICTURE_LOOKS: Record<string, ChallengeLook> = {
  "picture-challenge": {
    markup: (src) => `<div class="challenge"><img aria-hidden="true" src="${src}" width="180" height="60">
  <button type="button" onclick="this.previousElementSibling.src=this.previousElementSibling.src.split('?')[0]+'?'+Date.now()">New image</button></div>
  <label for="verify_answer">Type the characters in the picture</label> <input id="verify_answer" name="answer" autocomplete="off">`,
    field: "answer",
    refusal: "The characters did not match. Try again.",
  },
  "bild-challenge": {
    markup: (
      src,
    ) => `<fieldset><legend>Sicherheitsabfrage</legend><img aria-hidden="true" src="${src}" width="180" height="60">
  <label>Bitte geben Sie die Zeichen aus dem Bild ein <input name="pruefung" autocomplete="off"></label> <a href="#" onclick="location.reload();return false">Neues Bild</a></fieldset>`,
    field: "pruefung",
    refusal: "Die Zeichen stimmen nicht überein.",
  },
};

/**
 * A distorted-text CAPTCHA, as many server-rendered sites and forums put on their forms: an image of a few
 * characters and a field "Type the characters in the image". Each view of the form draws new characters (kept
 * under the visitor's cookie) and each is checked once. Only a person can read the image: the fixture tells a
 * test's "person" what the image served last showed, as their eyes would.
 */
export function imageChallenge(r: Router, name: string, look: ChallengeLook = DEFAULT_LOOK) {
  const words = new Map<string, string>();
  const visitorOf = (req: Request, res?: Response) => {
    let visitor = readCookie(req.headers.cookie, COOKIE);
    if (!visitor && res) {
      visitor = randomBytes(12).toString("hex");
      res.cookie(COOKIE, visitor, { httpOnly: true, path: "/" });
    }
    return visitor ?? "";
  };
  r.get(`${base(name)}/captcha.svg`, (req, res) => {
    const word = words.get(visitorOf(req)) ?? "";
    imageCaptchaShown.latest = word;
    const letters = [...word]
      .map(
        (c, i) =>
          `<text x="${18 + i * 30}" y="${40 + randomInt(-6, 7)}" transform="rotate(${randomInt(-20, 21)} ${18 + i * 30} 36)">${c}</text>`,
      )
      .join("");
    const noise = Array.from(
      { length: 6 },
      () =>
        `<line x1="${randomInt(180)}" y1="${randomInt(60)}" x2="${randomInt(180)}" y2="${randomInt(60)}" stroke="#777"/>`,
    ).join("");
    res
      .type("image/svg+xml")
      .set("cache-control", "no-store")
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="60"><rect width="180" height="60" fill="#eee"/><g font-family="serif" font-size="30" fill="#333">${letters}</g>${noise}</svg>`,
      );
  });
  return {
    /** The image and its field, with new characters for this visitor. */
    draw(req: Request, res: Response): string {
      words.set(visitorOf(req, res), Array.from({ length: 5 }, () => LETTERS[randomInt(LETTERS.length)]).join(""));
      return look.markup(`${base(name)}/captcha.svg?${randomBytes(4).toString("hex")}`);
    },
    /** The site's refusal, or null when the posted characters are the ones drawn (spent either way). */
    check(body: Record<string, string>, req: Request): string | null {
      const visitor = visitorOf(req);
      const word = words.get(visitor);
      words.delete(visitor);
      return word &&
        String(body[look.field] ?? "")
          .trim()
          .toUpperCase() === word
        ? null
        : look.refusal;
    },
  };
}

const NAME = "image-captcha";

/** A login form with the image challenge: a wrong answer shows the form again with new characters and counts no attempt on the account. */
function imageCaptcha(accounts: Accounts, name = NAME, look: ChallengeLook = DEFAULT_LOOK): Router {
  let challenge: ReturnType<typeof imageChallenge>;
  const r = formCase(
    accounts,
    name,
    (error, req, res) => page("Sign in", `<h1>Sign in</h1>${plainForm(name, error, challenge.draw(req!, res!))}`),
    {
      gate: (body, req) => challenge.check(body, req),
    },
  );
  challenge = imageChallenge(r, name, look);
  return r;
}

/** The challenge by shape only (PICTURE_LOOKS), one page each. */
const pictureChallenges = (accounts: Accounts): Router[] =>
  Object.entries(PICTURE_LOOKS).map(([name, look]) => imageCaptcha(accounts, name, look));

export const imageCaptchaCases = defineCase({
  router: ({ accounts }) => [imageCaptcha(accounts), ...pictureChallenges(accounts)],
  cases: [NAME, ...Object.keys(PICTURE_LOOKS)].map(captchaBlocked),
});
