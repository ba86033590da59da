/**
 * `npm run build`: the static site, always (not only when stale), into a fresh directory that
 * `dist` is then switched to, marked current so that a following `npm start` does not build again
 * (scripts/build-state.ts).
 */
import { buildSite } from './build-state.ts';

const dir = await buildSite();
console.log(`dist -> ${dir}`);
