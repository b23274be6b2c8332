export { BrowserHost, contextOptions, type BrowserHostOptions } from "./browser-host";
export { EgressProxy, type EgressRefusal } from "./egress-proxy";
export { launchChromium, CHROMIUM_ARGS, type BrowserMode } from "./launch-chromium";
export { DEFAULT_CHROMIUM, chromiumPath } from "@authsvc/config";
export { TargetGuard, type TargetVerdict } from "@authsvc/egress";
export { captureState } from "./capture-state";
export { readOriginStorageInPage, type OriginStorage } from "./read-origin-storage";
export { guardRequests, setPersonScope } from "./guard-requests";
export { answerHttpAuth, type HttpAuthCredentials, type HttpAuthState } from "./http-auth";
export { pageSession } from "./page-session";
export { typeKeys } from "./type-keys";
export { openPage, preparePagesLike, preparePagesOf } from "./page-preparer";
export { isClosedTargetError } from "./tolerate-closed-targets";
export type { Browser, BrowserContext, Page, Frame, ElementHandle, HTTPRequest, HTTPResponse } from "puppeteer-core";
export {
  chromiumBrowsersOf,
  machineCpuSeconds,
  namedProcessesCpuSeconds,
  processOwnCpuSeconds,
  processOwnMemoryBytes,
  processTreeCpuSeconds,
  processTreeMemoryBytes,
} from "./process-memory";
export {
  acceptLanguageOf,
  applyBrowserProfile,
  type BrowserProfile,
  chooseBrowserProfile,
  DEFAULT_PROFILE_REGION,
  PROFILE_REGIONS,
  profileKey,
  relocateBrowserProfile,
} from "./browser-profile";
export { connectVia, ProxyFailure, proxyAddress, type UpstreamProxy } from "./upstream-proxy";
export type { ProxyDoor } from "./egress-proxy";
export { armAuthenticator, armNewPages, loadPasskeys, readPasskeys, type VirtualPasskey } from "./passkeys";
