import { PuppeteerExtraPlugin } from "puppeteer-extra-plugin";
import StealthPlugin from "puppeteer-extra-plugin-stealth";
import type { Page } from "puppeteer-core";

/** The hooks of puppeteer-extra-plugin-stealth's evasions we call (each evasion is a puppeteer-extra plugin). */
interface Evasion {
  name: string;
  beforeLaunch?(options: Record<string, unknown>): Promise<Record<string, unknown> | void>;
  beforeConnect?(options: Record<string, unknown>): Promise<Record<string, unknown> | void>;
  onPageCreated?(page: Page): Promise<void>;
}

/** A script an evasion asked to run in every new document: through the stealth utilities (withUtils) or on its own. */
type Recorded = { utilsFns: Record<string, string>; main: string; args: unknown[] } | { fn: string; args: unknown[] };

/**
 * The evasions of puppeteer-extra-plugin-stealth (all of them but `navigator.languages`: Chromium's own
 * navigator.languages follows the Accept-Language a page's browser profile sets, in applyBrowserProfile; the
 * evasion would pin it to en-US, a language that disagrees with the header).
 */
export const STEALTH_EVASIONS: readonly string[] = Object.freeze(
  [...StealthPlugin().enabledEvasions].filter((name) => name !== "navigator.languages"),
);

/**
 * The stealth evasions as one plugin that gives every new page one script instead of thirteen.
 *
 * Registered as the stealth plugin does it, each evasion added a script of its own to every page, each
 * carrying the evasions' 21 KB of utilities and evaluating them again: every document and every frame
 * parsed and ran them thirteen times. That was about 0.2 CPU-seconds of each login (docs/performance.md).
 * Here each evasion runs as written, on the page, except that what it asks to run in new documents is
 * gathered, and sent as one script that sets the utilities up once and then runs each evasion's part in
 * the same order, each on its own (one that throws does not stop the others, as with separate scripts).
 * Everything else an evasion does (the user agent override, launch arguments) reaches the page and the
 * launch unchanged.
 */
export class StealthInOneScript extends PuppeteerExtraPlugin {
  private readonly evasions: Evasion[];

  constructor(evasions: readonly string[] = STEALTH_EVASIONS) {
    super({});
    this.evasions = evasions.map((name) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the evasion's module is named at run time
      (require(`puppeteer-extra-plugin-stealth/evasions/${name}`) as () => Evasion)(),
    );
  }

  override get name(): string {
    return "stealth-in-one-script";
  }

  // The evasions change the options they are given (one returns them too); so does this, in their order.
  override async beforeLaunch(options: Record<string, unknown>): Promise<void> {
    await this.adjust("beforeLaunch", options);
  }

  override async beforeConnect(options: Record<string, unknown>): Promise<void> {
    await this.adjust("beforeConnect", options);
  }

  /** Each evasion's change to the launch (or connect) options, in order, into `options`. */
  private async adjust(step: "beforeLaunch" | "beforeConnect", options: Record<string, unknown>): Promise<void> {
    for (const evasion of this.evasions) {
      const changed = await evasion[step]?.(options);
      if (changed && changed !== options) Object.assign(options, changed);
    }
  }

  override async onPageCreated(page: Page): Promise<void> {
    const recorded: Recorded[] = [];
    const recording = recordingPage(page, recorded);
    // Started together, as the stealth plugin's separate plugins are: each evasion's script is asked for
    // before its first await, so all of them are gathered once the calls return, and the one script is sent
    // in the same turn the separate ones were (before the page is handed to a job, see BrowserHost.prepare).
    const running = this.evasions.map((evasion) => evasion.onPageCreated?.(recording));
    const sent = recorded.length ? page.evaluateOnNewDocument(oneScript(recorded)) : Promise.resolve();
    await Promise.all([sent, ...running]);
  }
}

/** The page as the evasions see it: scripts for new documents are recorded; everything else is the page's own. */
function recordingPage(page: Page, recorded: Recorded[]): Page {
  return new Proxy(page, {
    get(target, property) {
      if (property === "evaluateOnNewDocument") {
        return async (fn: string | ((...args: unknown[]) => unknown), ...args: unknown[]) => {
          const [only] = args as [
            { _utilsFns?: Record<string, string>; _mainFunction?: string; _args?: unknown[] } | undefined,
          ];
          if (args.length === 1 && only && typeof only._mainFunction === "string" && only._utilsFns) {
            recorded.push({ utilsFns: only._utilsFns, main: only._mainFunction, args: only._args ?? [] });
          } else {
            recorded.push({ fn: fn.toString(), args });
          }
          return { identifier: "" };
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * One script running every recorded one. The utilities are made as withUtils makes them: each evaluated in a
 * scope where `utils` names the object they are put in (their code refers to it), then `utils.init()`.
 */
export function oneScript(recorded: readonly Recorded[]): string {
  const utilsFns = recorded.find((r): r is Extract<Recorded, { main: string }> => "main" in r)?.utilsFns;
  const parts = recorded.map((r) =>
    "main" in r
      ? `  run(() => eval(${JSON.stringify(r.main)})(utils, ...${JSON.stringify(r.args)}));`
      : `  run(() => (${r.fn})(...${JSON.stringify(r.args)}));`,
  );
  return [
    "(() => {",
    "  const run = (part) => { try { part(); } catch (_) {} };",
    utilsFns
      ? `  const utils = Object.fromEntries(Object.entries(${JSON.stringify(utilsFns)}).map(([key, value]) => [key, eval(value)]));\n  utils.init();`
      : "",
    ...parts,
    "})();",
  ].join("\n");
}
