export { TargetGuard, type TargetVerdict, type ResolvedTarget, type Lookup } from "./target-guard";
export {
  postToCheckedAddresses,
  requestCheckedAddresses,
  type CheckedAnswer,
  type CheckedRequest,
} from "./checked-post";
export { HostMap, HostMapError, type HostMapTarget } from "./host-map";
export { registrableDomain } from "./registrable-domain";
export { proxyHostAllowed } from "./proxy-allow";
