export { BrowserHost } from "./browser-host";
export { launchChromium, CHROMIUM_ARGS } from "./launch-chromium";
export { TargetGuard, type TargetVerdict } from "./target-guard";
export { captureState } from "./capture-state";
export { guardRequests } from "./guard-requests";
export { isClosedTargetError } from "./tolerate-closed-targets";
export type { Browser, BrowserContext, Page, ElementHandle, HTTPRequest } from "puppeteer-core";
