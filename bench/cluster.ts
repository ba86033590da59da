/**
 * `npm run bench -- cluster`: how long after a rebuild finishes every API process serves it.
 * The cluster test's setup (tests/cluster/cluster.ts: PostgreSQL, s3rver, two `node
 * src/server/main.ts` processes with their own DATA_DIR, publication poll 30 s), then `rounds`
 * rebuilds on A, each adding a news item. "Finished" is the NOTIFY of the transaction recording
 * its success (seen by a listener of our own, like every process's); "served" is the first answer,
 * polled every 20 ms, in which a node serves both the item's page and the content API's answer.
 * A switches before that commit (so about 0); B fetches the build from the bucket, unpacks it,
 * loads its content and switches. Heavy (a real `astro build` per round): only when named.
 */
import { buildIfStale } from '../scripts/run.ts';
import { addNews, listenToPublications, newsServed, propagation, startCluster, startRebuild, waitForBuild } from '../tests/cluster/cluster.ts';

export async function benchCluster(rounds = 3): Promise<void> {
  await buildIfStale();
  const cluster = await startCluster({ nodes: 2, pollSeconds: 30, logLevel: 'warn' });
  const listener = await listenToPublications(cluster);
  const a = cluster.nodes[0]!;
  const worst: number[] = [];
  console.log(`\n## cluster: rebuild finished → served by every node (${cluster.nodes.length} API processes, PostgreSQL NOTIFY, S3 bucket)`);
  try {
    for (let round = 1; round <= rounds; round += 1) {
      const item = { newsId: `bench-${Date.now().toString(36)}-${round}`, title: `集群基准 ${round}` };
      await addNews(cluster.nodes[1] ?? a, item.newsId, item.title);
      const before = performance.now();
      const buildId = await startRebuild(cluster, a);
      const published = await waitForBuild(cluster, a, listener, buildId, before, 15 * 60_000);
      const times = await propagation(cluster.nodes, published, (node) => newsServed(node, item.newsId, item.title), 60_000);
      const max = Math.max(...Object.values(times));
      worst.push(max);
      console.log(`rebuild ${round}: ${Object.entries(times).map(([name, ms]) => `${name} ${ms} ms`).join(', ')}; every node: ${max} ms`);
    }
    const sorted = [...worst].sort((x, y) => x - y);
    console.log(`every node serving it, over ${rounds} rebuilds: median ${sorted[Math.floor((sorted.length - 1) / 2)]} ms, max ${sorted.at(-1)} ms`);
  } finally {
    await listener.stop().catch(() => {});
    await cluster.stop();
  }
}
