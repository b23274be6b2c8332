import type { RealApp } from "./support";
import { wordpress } from "./wordpress";

/** The applications of `pnpm bench:real`, in the order they run (the most widely used first). */
export const REAL_APPS: RealApp[] = [wordpress];
