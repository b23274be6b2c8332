import type { BrowserContext, Page } from "puppeteer-core";

type Prepare = (page: Page) => Promise<void>;

const preparers = new WeakMap<BrowserContext, Prepare>();

/**
 * What every further page the service opens in `context` (by `openPage`) gets before it loads anything, as
 * the job's first page got it: the credential's browser profile, so that the second tab that checks a
 * session and a remembered device's looks show the site the same browser as the login.
 */
export function preparePagesOf(context: BrowserContext, prepare: Prepare): void {
  preparers.set(context, prepare);
}

/** Pages of `to` (another context made for the same job) get what pages of `from` get. */
export function preparePagesLike(to: BrowserContext, from: BrowserContext): void {
  const prepare = preparers.get(from);
  if (prepare) preparers.set(to, prepare);
}

/** A new page of `context`, prepared as `preparePagesOf` said; closed again when its preparation fails. */
export async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const prepare = preparers.get(context);
  if (prepare) {
    try {
      await prepare(page);
    } catch (err) {
      await page.close().catch(() => undefined);
      throw err;
    }
  }
  return page;
}
