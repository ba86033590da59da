/**
 * Stages of a long run (`npm test`), each timed: its wall-clock seconds and how busy the machine's
 * cores were meanwhile (from /proc/stat), so a stage that mostly waits shows as such. Stages may
 * run side by side in lanes; a table at the end lists them with the run's own total against a
 * limit, and the same rows go to a JSON file that `.ci/run` folds into its table.
 * @example
 * const stages = new Stages();
 * await stages.run('build', () => run('astro', ['build']));
 * console.log(stages.table({ limitSeconds: 1800 }));
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export interface StageRecord {
  name: string;
  /** The lane it ran in, when stages ran side by side. */
  lane?: string;
  /** Seconds from the run's start to the stage's start. */
  startedAt: number;
  seconds: number;
  /** Cores busy on average during the stage (machine-wide: stages of other lanes included); null when unknown. */
  busyCores: number | null;
  ok: boolean;
}

/** Busy and total jiffies of all cores so far (Linux); undefined where /proc/stat is missing. */
function cpuJiffies(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are the waiting.
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const waiting = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - waiting, total };
  } catch {
    return undefined;
  }
}

const cores = availableParallelism();

/** Seconds as `12 min 34 s` (or `34 s`). */
function duration(seconds: number): string {
  const whole = Math.round(seconds);
  return whole >= 60 ? `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s` : `${whole} s`;
}

export class Stages {
  readonly records: StageRecord[] = [];
  readonly #started = Date.now();

  /** Runs `action` (resolving an exit code) as a stage; resolves whether it passed. A throw is a failure. */
  async run(name: string, action: () => Promise<number>, lane?: string): Promise<boolean> {
    const startedAt = Date.now();
    const before = cpuJiffies();
    console.log(`== ${name}${lane ? ` (${lane})` : ''}: started`);
    const code = await action().catch((error: unknown) => {
      console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    });
    const seconds = (Date.now() - startedAt) / 1000;
    const after = cpuJiffies();
    const busyCores =
      before && after && after.total > before.total
        ? ((after.busy - before.busy) / (after.total - before.total)) * cores
        : null;
    const record: StageRecord = {
      name,
      ...(lane === undefined ? {} : { lane }),
      startedAt: (startedAt - this.#started) / 1000,
      seconds,
      busyCores,
      ok: code === 0,
    };
    this.records.push(record);
    console.log(
      `== ${name}: ${code === 0 ? 'passed' : 'FAILED'} in ${duration(seconds)}, ${busyCores === null ? '?' : busyCores.toFixed(1)} of ${cores} cores busy`,
    );
    return code === 0;
  }

  /** Seconds since the run started. */
  elapsed(): number {
    return (Date.now() - this.#started) / 1000;
  }

  /** The stages as a table, ending with the run's total against `limitSeconds` (and a warning past `warnSeconds`). */
  table({ title, limitSeconds, warnSeconds }: { title: string; limitSeconds: number; warnSeconds?: number }): string {
    const total = this.elapsed();
    return stageTable(title, this.records, total, limitSeconds, warnSeconds);
  }

  /** Writes the stages (and the run's closing line, for .ci/run to repeat last) as JSON. */
  write(file: string, closingLine: string): void {
    writeFileSync(file, JSON.stringify({ total: this.elapsed(), cores, closingLine, stages: this.records }, null, 2));
  }
}

export function stageTable(
  title: string,
  records: readonly StageRecord[],
  total: number,
  limitSeconds: number,
  warnSeconds?: number,
): string {
  const rows = records.map((r) => [
    r.ok ? '✓' : '✗',
    r.name,
    r.lane ?? '',
    duration(r.startedAt),
    duration(r.seconds),
    r.busyCores === null || r.busyCores < 0 ? '?' : `${r.busyCores.toFixed(1)} / ${cores}`,
  ]);
  const header = ['', 'stage', 'lane', 'started at', 'took', 'cores busy'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  const lines = [`${title}`, line(header), ...rows.map(line)];
  lines.push(`total ${duration(total)} (${Math.round(total)} s) of ${Math.round(limitSeconds)} s allowed`);
  if (total > limitSeconds) lines.push(`OVER THE LIMIT of ${limitSeconds} s by ${Math.round(total - limitSeconds)} s`);
  else if (warnSeconds !== undefined && total > warnSeconds)
    lines.push(`close to the limit: past ${warnSeconds} s, ${Math.round(limitSeconds - total)} s left`);
  return lines.join('\n');
}
