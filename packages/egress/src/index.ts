export { TargetGuard, type TargetVerdict, type ResolvedTarget, type Lookup } from "./target-guard";
export { postToCheckedAddresses } from "./checked-post";
export { HostMap, HostMapError, type HostMapTarget } from "./host-map";
