/**
 * `npm start`: build the site if its sources changed, then start the one server (site + API),
 * which migrates the database and seeds demo data into an empty one.
 */
import { buildIfStale } from './run.ts';

await buildIfStale();
const { runServer } = await import('../src/server/main.ts');
await runServer();
