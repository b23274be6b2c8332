import { randomInt } from "node:crypto";
import type { Page } from "puppeteer-core";
import { pageSession } from "./page-session";

/**
 * What one browser shows a site, chosen once per credential and stored with it, so every later run of that
 * credential comes back as the same browser: its operating system (in the user agent, the client hints and
 * navigator.platform), its languages and locale, its time zone, its screen, window and pixel density. The
 * user agent's version is the running Chromium's, put in at each run: a stored version would go stale with
 * an upgrade and disagree with what the engine does. Never a secret.
 */
export interface BrowserProfile {
  /** Where its person is (a proxy's region, else the default): the languages and time zone are of it. */
  region?: string;
  platform: "Windows" | "macOS" | "Linux";
  /** The first is the locale (`Intl`, `navigator.language`); all of them, weighted, are `Accept-Language`. */
  languages: string[];
  timezone: string;
  screen: { width: number; height: number };
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
}

/** Places a browser's person may be, by region: a locale and the time zones that go with it. */
const REGIONS: Record<string, Array<{ languages: string[]; timezones: string[] }>> = {
  us: [
    {
      languages: ["en-US", "en"],
      timezones: ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"],
    },
  ],
  eu: [
    { languages: ["en-GB", "en"], timezones: ["Europe/London"] },
    { languages: ["de-DE", "de", "en-US", "en"], timezones: ["Europe/Berlin"] },
    { languages: ["fr-FR", "fr", "en-US", "en"], timezones: ["Europe/Paris"] },
    { languages: ["nl-NL", "nl", "en-US", "en"], timezones: ["Europe/Amsterdam"] },
    { languages: ["es-ES", "es", "en-US", "en"], timezones: ["Europe/Madrid"] },
    { languages: ["it-IT", "it", "en-US", "en"], timezones: ["Europe/Rome"] },
  ],
  uk: [{ languages: ["en-GB", "en"], timezones: ["Europe/London"] }],
  ca: [{ languages: ["en-CA", "en", "fr-CA"], timezones: ["America/Toronto", "America/Vancouver"] }],
  au: [{ languages: ["en-AU", "en"], timezones: ["Australia/Sydney", "Australia/Melbourne"] }],
  jp: [{ languages: ["ja-JP", "ja", "en-US", "en"], timezones: ["Asia/Tokyo"] }],
  br: [{ languages: ["pt-BR", "pt", "en-US", "en"], timezones: ["America/Sao_Paulo"] }],
  in: [{ languages: ["en-IN", "en", "hi"], timezones: ["Asia/Kolkata"] }],
};
/** The region of a browser whose exit address says none (no proxy with a region). */
export const DEFAULT_PROFILE_REGION = "us";

/** Screens people use, with what each operating system's window leaves of them and its pixel densities. */
const SCREENS: Record<BrowserProfile["platform"], Array<{ width: number; height: number; scales: number[] }>> = {
  Windows: [
    { width: 1920, height: 1080, scales: [1, 1.25] },
    { width: 1536, height: 864, scales: [1.25] },
    { width: 1366, height: 768, scales: [1] },
    { width: 2560, height: 1440, scales: [1, 1.5] },
    { width: 1600, height: 900, scales: [1] },
  ],
  macOS: [
    { width: 1440, height: 900, scales: [2] },
    { width: 1512, height: 982, scales: [2] },
    { width: 1728, height: 1117, scales: [2] },
    { width: 1680, height: 1050, scales: [2] },
    { width: 1920, height: 1080, scales: [1] },
  ],
  Linux: [
    { width: 1920, height: 1080, scales: [1] },
    { width: 2560, height: 1440, scales: [1] },
    { width: 1366, height: 768, scales: [1] },
  ],
};
// What the browser's own bars and the system's take of the screen's height.
const CHROME_HEIGHT: Record<BrowserProfile["platform"], number> = { Windows: 131, macOS: 112, Linux: 118 };
const PLATFORMS: Array<BrowserProfile["platform"]> = ["Windows", "Windows", "Windows", "macOS", "macOS", "Linux"];

const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)]!;

/** The regions a profile may be chosen for. */
export const PROFILE_REGIONS = Object.keys(REGIONS);

/**
 * A coherent browser for a person in `region` (the proxy's, when it has one): an operating system, a
 * screen of that system with one of its pixel densities, the window that fits it, and a locale with a time
 * zone of that region. `taken`: profiles other credentials of the organization use; one of them is chosen
 * again only when a few tries found nothing else.
 */
export function chooseBrowserProfile(
  region: string = DEFAULT_PROFILE_REGION,
  taken: readonly BrowserProfile[] = [],
): BrowserProfile {
  const places = REGIONS[region] ?? REGIONS[DEFAULT_PROFILE_REGION]!;
  const used = new Set(taken.map(profileKey));
  let profile!: BrowserProfile;
  for (let i = 0; i < 20; i++) {
    const platform = pick(PLATFORMS);
    const screen = pick(SCREENS[platform]);
    const place = pick(places);
    profile = {
      region: REGIONS[region] ? region : DEFAULT_PROFILE_REGION,
      platform,
      languages: place.languages,
      timezone: pick(place.timezones),
      screen: { width: screen.width, height: screen.height },
      viewport: { width: screen.width, height: screen.height - CHROME_HEIGHT[platform] },
      deviceScaleFactor: pick(screen.scales),
    };
    if (!used.has(profileKey(profile))) break;
  }
  return profile;
}

/**
 * The same browser with its person in another region (its credential moved to a proxy of that region): the
 * system, screen and window stay; the languages and time zone become the region's.
 */
export function relocateBrowserProfile(profile: BrowserProfile, region: string): BrowserProfile {
  const place = pick(REGIONS[region] ?? REGIONS[DEFAULT_PROFILE_REGION]!);
  return {
    ...profile,
    region: REGIONS[region] ? region : DEFAULT_PROFILE_REGION,
    languages: place.languages,
    timezone: pick(place.timezones),
  };
}

/** Two profiles are the same browser when they agree on everything a site reads. */
export function profileKey(p: BrowserProfile): string {
  return [
    p.platform,
    p.languages.join(","),
    p.timezone,
    `${p.screen.width}x${p.screen.height}`,
    `${p.viewport.width}x${p.viewport.height}`,
    p.deviceScaleFactor,
  ].join("|");
}

/** The Accept-Language header of the profile's languages: the first unweighted, each next a tenth less. */
export function acceptLanguageOf(languages: readonly string[]): string {
  return languages.map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(",");
}

const UA_OS: Record<BrowserProfile["platform"], string> = {
  Windows: "Windows NT 10.0; Win64; x64",
  macOS: "Macintosh; Intel Mac OS X 10_15_7",
  Linux: "X11; Linux x86_64",
};
const NAVIGATOR_PLATFORM: Record<BrowserProfile["platform"], string> = {
  Windows: "Win32",
  macOS: "MacIntel",
  Linux: "Linux x86_64",
};
const HINT_PLATFORM_VERSION: Record<BrowserProfile["platform"], string> = {
  Windows: "15.0.0",
  macOS: "14.6.1",
  Linux: "6.5.0",
};

/**
 * Shows the profile on `page`: the user agent with this Chromium's version (as Chrome reduces it, with
 * matching client hints), the languages in Accept-Language and navigator.languages, the locale, the time
 * zone, the screen and window and the pixel density. On the page's own DevTools session, kept open with
 * the page (the overrides last as long as it does). Run after the stealth layer set up the page (it sets a
 * user agent of its own when a page is made): the later override is the one the page keeps.
 */
export async function applyBrowserProfile(page: Page, profile: BrowserProfile): Promise<void> {
  const full = /\/([\d.]+)/.exec(await page.browser().version())?.[1] ?? "120.0.0.0";
  const major = full.split(".")[0]!;
  const userAgent = `Mozilla/5.0 (${UA_OS[profile.platform]}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
  const brands = [
    { brand: "Chromium", version: major },
    { brand: "Google Chrome", version: major },
    { brand: "Not/A)Brand", version: "24" },
  ];
  const client = await pageSession(page);
  await Promise.all([
    client.send("Network.setUserAgentOverride", {
      userAgent,
      acceptLanguage: acceptLanguageOf(profile.languages),
      platform: NAVIGATOR_PLATFORM[profile.platform],
      userAgentMetadata: {
        brands,
        fullVersionList: brands.map((b) => ({
          brand: b.brand,
          version: b.brand === "Not/A)Brand" ? "24.0.0.0" : full,
        })),
        fullVersion: full,
        platform: profile.platform,
        platformVersion: HINT_PLATFORM_VERSION[profile.platform],
        architecture: "x86",
        bitness: "64",
        model: "",
        mobile: false,
        wow64: false,
      },
    }),
    client.send("Emulation.setTimezoneOverride", { timezoneId: profile.timezone }),
    client.send("Emulation.setLocaleOverride", { locale: profile.languages[0] }),
    client.send("Emulation.setDeviceMetricsOverride", {
      width: profile.viewport.width,
      height: profile.viewport.height,
      deviceScaleFactor: profile.deviceScaleFactor,
      mobile: false,
      screenWidth: profile.screen.width,
      screenHeight: profile.screen.height,
    }),
  ]);
}
