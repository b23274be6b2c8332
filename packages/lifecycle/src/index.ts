export { shutdownOnSignals, type ShutdownPlan, type ShutdownStep } from "./shutdown";
