import { Router } from "express";
import { type Accounts, page } from "../accounts";
import { formCase, plainForm } from "./kit";
import { defineCase } from "./login-case";

const NAME = "browser-seen";

/** What a site can read of a browser at its login: its headers and what its scripts see. */
export interface SeenBrowser {
  userAgentHeader: string;
  acceptLanguage: string;
  userAgent: string;
  platform: string;
  languages: string[];
  timezone: string;
  screen: { width: number; height: number };
  viewport: { width: number; height: number };
  devicePixelRatio: number;
}

/**
 * A login page that reads the browser as sites' risk checks do: a script puts what it sees (user agent,
 * platform, languages, time zone, screen, window, pixel density) in a hidden field, and the post is kept
 * with its headers, per username (`GET /__fixture/browsers-seen/:username`).
 */
function browserSeen(accounts: Accounts): Router {
  const r = Router();
  const seen = new Map<string, SeenBrowser[]>();
  r.get("/__fixture/browsers-seen/:username", (req, res) => {
    res.json({ seen: seen.get(req.params.username) ?? [] });
  });
  const script = `document.querySelector("input[name=seen]").value = JSON.stringify({
  userAgent: navigator.userAgent, platform: navigator.platform, languages: [...navigator.languages],
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, screen: { width: screen.width, height: screen.height },
  viewport: { width: innerWidth, height: innerHeight }, devicePixelRatio });`;
  r.use(
    formCase(
      accounts,
      NAME,
      (error) =>
        page(
          "Sign in",
          `<h1>Sign in</h1>${plainForm(NAME, error, `<input type="hidden" name="seen" value="">`)}`,
          script,
        ),
      {
        gate: (body, req) => {
          let read: Partial<SeenBrowser> = {};
          try {
            read = JSON.parse(body.seen ?? "{}") as Partial<SeenBrowser>;
          } catch {
            // A post without the script's reading: only the headers are kept.
          }
          const username = body.username ?? "";
          seen.set(username, [
            ...(seen.get(username) ?? []),
            {
              ...(read as SeenBrowser),
              userAgentHeader: String(req.headers["user-agent"] ?? ""),
              acceptLanguage: String(req.headers["accept-language"] ?? ""),
            },
          ]);
          return null;
        },
      },
    ),
  );
  return r;
}

const REGION_CHECK = "region-check";
// Where each client address is (the fixture proxies' exits), and the languages people there browse in.
const REGION_OF_ADDRESS: Record<string, { zones: string; languages: string[] }> = {
  "127.0.0.2": { zones: "Europe/", languages: ["en-GB", "de-DE", "fr-FR", "nl-NL", "es-ES", "it-IT"] },
};
const DEFAULT_REGION = { zones: "America/", languages: ["en-US", "en-CA", "fr-CA", "pt-BR"] };

/**
 * A login page whose risk check compares the browser with the address it comes from, as bot managers do:
 * a time zone or language of another region than the address's (by its table) is refused before the
 * password is checked ("We couldn't verify this sign-in…"). `GET /__fixture/region-refusals` counts them.
 */
function regionCheck(accounts: Accounts): Router {
  const r = Router();
  let refusals = 0;
  r.get("/__fixture/region-refusals", (_req, res) => {
    res.json({ refusals });
  });
  const script = `document.querySelector("input[name=seen]").value = JSON.stringify({
  languages: [...navigator.languages], timezone: Intl.DateTimeFormat().resolvedOptions().timeZone });`;
  r.use(
    formCase(
      accounts,
      REGION_CHECK,
      (error) =>
        page(
          "Sign in",
          `<h1>Sign in</h1>${plainForm(REGION_CHECK, error, `<input type="hidden" name="seen" value="">`)}`,
          script,
        ),
      {
        gate: (body, req) => {
          const region = REGION_OF_ADDRESS[req.socket.remoteAddress ?? ""] ?? DEFAULT_REGION;
          let seen: { languages?: string[]; timezone?: string } = {};
          try {
            seen = JSON.parse(body.seen ?? "{}") as typeof seen;
          } catch {
            // no reading: refused below
          }
          const fits =
            (seen.timezone ?? "").startsWith(region.zones) && region.languages.includes(seen.languages?.[0] ?? "");
          if (fits) return null;
          refusals++;
          return "We couldn't verify this sign-in. Try again from your usual device.";
        },
      },
    ),
  );
  return r;
}

export const browserSeenCases = defineCase({
  router: ({ accounts }) => [browserSeen(accounts), regionCheck(accounts)],
});
