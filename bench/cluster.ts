/**
 * `npm run bench -- cluster`: publish click → served by every API process. The cluster test's
 * setup (tests/cluster/cluster.ts: PostgreSQL, s3rver, two `node src/server/main.ts` processes
 * with their own DATA_DIR, publication poll 30 s, one `npm run worker`), then publications of one
 * news item: a new item, an edit of its title and body (both incremental: only the pages they
 * touch), and a forced full build of a third for comparison. "Click" is the moment the rebuild call
 * is sent; "finished" the NOTIFY of the transaction recording its success (a listener of our own,
 * like every process's); "served" the first answer, polled every 20 ms, in which a node serves
 * both the item's page and the content API's answer. The goal: a one-item publication visible on
 * every process ≤ 15 s after the click. Heavy (real builds): only when named.
 */
import { buildIfStale } from '../scripts/run.ts';
import {
  addNews,
  listenToPublications,
  newsServed,
  propagation,
  startCluster,
  startRebuild,
  waitForBuild,
} from '../tests/cluster/cluster.ts';

/** Publish click → visible on every process, for one news item (issue goal). */
const goalSeconds = 15;

export async function benchCluster(): Promise<void> {
  await buildIfStale();
  const cluster = await startCluster({ nodes: 2, pollSeconds: 30, logLevel: 'warn' });
  const listener = await listenToPublications(cluster);
  const [a, b] = [cluster.nodes[0]!, cluster.nodes[1] ?? cluster.nodes[0]!];
  const run = Date.now().toString(36);
  const rounds = [
    { label: 'new news item (incremental)', newsId: `bench-${run}-1`, title: `基准新闻 ${run}`, full: false },
    {
      label: 'edit of its title and body (incremental)',
      newsId: `bench-${run}-1`,
      title: `基准新闻 ${run}（已修改）`,
      full: false,
    },
    { label: 'another new item, full build forced', newsId: `bench-${run}-2`, title: `基准新闻 ${run} 二`, full: true },
  ];
  console.log(
    `\n## publish → visible (${cluster.nodes.length} API processes + 1 worker, PostgreSQL NOTIFY, S3 bucket)`,
  );
  console.log(
    'publication'.padEnd(44) +
      'build+publish'.padStart(15) +
      'then every node'.padStart(17) +
      'click → visible'.padStart(17),
  );
  const incremental: number[] = [];
  try {
    for (const round of rounds) {
      await addNews(b, round.newsId, round.title, `${round.title}：基准测试正文。`);
      const clicked = performance.now();
      const buildId = await startRebuild(cluster, a, { full: round.full });
      const published = await waitForBuild(cluster, a, listener, buildId, clicked, 15 * 60_000);
      const times = await propagation(
        cluster.nodes,
        published,
        (node) => newsServed(node, round.newsId, round.title),
        60_000,
      );
      const spread = Math.max(...Object.values(times));
      const total = (published.at - clicked + spread) / 1000;
      if (!round.full) incremental.push(total);
      console.log(
        round.label.padEnd(44) +
          `${((published.at - clicked) / 1000).toFixed(1)} s`.padStart(15) +
          `${spread} ms`.padStart(17) +
          `${total.toFixed(1)} s`.padStart(17),
      );
    }
    const worst = Math.max(...incremental);
    console.log(
      `one-item publication, worst of ${incremental.length}: ${worst.toFixed(1)} s (goal ≤ ${goalSeconds} s: ${worst <= goalSeconds ? 'met' : 'NOT met'})`,
    );
  } finally {
    await listener.stop().catch(() => {});
    await cluster.stop();
  }
}
