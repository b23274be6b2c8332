import { randomBytes, randomInt } from "node:crypto";
import type { Request, Response, Router } from "express";
import { type Accounts, page, readCookie } from "../accounts";
import { base, formCase, plainForm } from "./kit";

const COOKIE = "img_captcha";
const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** What the image served last showed: what a person looking at it reads (`GET /__fixture/image-captcha`). */
export const imageCaptchaShown = { latest: "" };

export const IMAGE_CAPTCHA_REFUSAL = "The characters you typed did not match the image. Please try again.";

/**
 * A distorted-text CAPTCHA, as many server-rendered sites and forums put on their forms: an image of a few
 * characters and a field "Type the characters in the image". Each view of the form draws new characters (kept
 * under the visitor's cookie) and each is checked once. Only a person can read the image: the fixture tells a
 * test's "person" what the image served last showed, as their eyes would.
 */
export function imageChallenge(r: Router, name: string) {
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
      .map((c, i) => `<text x="${18 + i * 30}" y="${40 + randomInt(-6, 7)}" transform="rotate(${randomInt(-20, 21)} ${18 + i * 30} 36)">${c}</text>`)
      .join("");
    const noise = Array.from({ length: 6 }, () => `<line x1="${randomInt(180)}" y1="${randomInt(60)}" x2="${randomInt(180)}" y2="${randomInt(60)}" stroke="#777"/>`).join("");
    res.type("image/svg+xml").set("cache-control", "no-store").send(
      `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="60"><rect width="180" height="60" fill="#eee"/><g font-family="serif" font-size="30" fill="#333">${letters}</g>${noise}</svg>`,
    );
  });
  return {
    /** The image and its field, with new characters for this visitor. */
    draw(req: Request, res: Response): string {
      words.set(visitorOf(req, res), Array.from({ length: 5 }, () => LETTERS[randomInt(LETTERS.length)]).join(""));
      return `<p><img alt="" src="${base(name)}/captcha.svg?${randomBytes(4).toString("hex")}" width="180" height="60"></p>
  <label>Type the characters in the image <input name="captcha_code" autocomplete="off"></label>`;
    },
    /** The site's refusal, or null when the posted characters are the ones drawn (spent either way). */
    check(body: Record<string, string>, req: Request): string | null {
      const visitor = visitorOf(req);
      const word = words.get(visitor);
      words.delete(visitor);
      return word && String(body.captcha_code ?? "").trim().toUpperCase() === word ? null : IMAGE_CAPTCHA_REFUSAL;
    },
  };
}

const NAME = "image-captcha";

/** A login form with the image challenge: a wrong answer shows the form again with new characters and counts no attempt on the account. */
export function imageCaptcha(accounts: Accounts): Router {
  let challenge: ReturnType<typeof imageChallenge>;
  const r = formCase(accounts, NAME, (error, req, res) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error, challenge.draw(req!, res!))}`), {
    gate: (body, req) => challenge.check(body, req),
  });
  challenge = imageChallenge(r, NAME);
  return r;
}
