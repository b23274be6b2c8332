import type { RealApp } from "./real-app";
import { adminer } from "./adminer";
import { django } from "./django";
import { dokuwiki } from "./dokuwiki";
import { jupyter } from "./jupyter";
import { mediawiki } from "./mediawiki";
import { nodeRed } from "./node-red";
import { parseDashboard } from "./parse-dashboard";
import { phpmyadmin } from "./phpmyadmin";
import { redmine } from "./redmine";
import { syncthing } from "./syncthing";
import { transmission } from "./transmission";
import { ttRss } from "./tt-rss";
import { verdaccio } from "./verdaccio";
import { wordpress } from "./wordpress";

/** The applications of `pnpm bench:real`, in the order they run (the most widely used first). */
export const REAL_APPS: RealApp[] = [
  wordpress,
  mediawiki,
  phpmyadmin,
  adminer,
  dokuwiki,
  django,
  jupyter,
  transmission,
  nodeRed,
  redmine,
  syncthing,
  parseDashboard,
  ttRss,
  verdaccio,
];
