export { BrowserHost, type BrowserHostOptions } from "./browser-host";
export { EgressProxy, type EgressRefusal } from "./egress-proxy";
export { launchChromium, CHROMIUM_ARGS } from "./launch-chromium";
export { TargetGuard, type TargetVerdict } from "@authsvc/egress";
export { captureState } from "./capture-state";
export { readOriginStorageInPage, type OriginStorage } from "./read-origin-storage";
export { guardRequests } from "./guard-requests";
export { isClosedTargetError } from "./tolerate-closed-targets";
export type { Browser, BrowserContext, Page, Frame, ElementHandle, HTTPRequest, HTTPResponse } from "puppeteer-core";
