/**
 * The S3-compatible test server's process (started by tests/api/s3Server.ts): s3rver on
 * 127.0.0.1, a free port chosen by the system, files in the directory given, one bucket made.
 * Prints `{"port":…}` once listening; stops when its standard input closes (so it never outlives
 * the test process that started it).
 *   node tests/api/s3ServerMain.ts <directory> <bucket>
 */
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) {
  process.stderr.write('usage: s3ServerMain.ts <directory> <bucket>\n');
  process.exit(2);
}
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: process.env['S3RVER_LOG'] !== '1',
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
const stop = () => {
  server.close().finally(() => process.exit(0));
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
