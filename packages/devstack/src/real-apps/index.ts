import type { RealApp } from "./support";
import { adminer } from "./adminer";
import { django } from "./django";
import { dokuwiki } from "./dokuwiki";
import { phpmyadmin } from "./phpmyadmin";
import { wordpress } from "./wordpress";

/** The applications of `pnpm bench:real`, in the order they run (the most widely used first). */
export const REAL_APPS: RealApp[] = [wordpress, phpmyadmin, adminer, dokuwiki, django];
