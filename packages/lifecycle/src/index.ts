export { waitForDependencies, type Dependency, type DependencyLog, type DependencyWait } from "./dependencies";
export { shutdownOnSignals, type ShutdownPlan, type ShutdownStep } from "./shutdown";
