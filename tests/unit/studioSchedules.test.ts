/**
 * Scheduled publishing's time: the form's China wall clock (`YYYY-MM-DDTHH:mm`, UTC+8 whatever the
 * machine's zone) to an instant and back, and the shared schema's rules (after now, at most a year
 * ahead) with their message keys, as the form and the server both check them.
 */
// A machine far from China (16 hours behind it in November): nothing may read the local zone.
process.env['TZ'] = 'America/Los_Angeles';

import { describe, expect, it } from 'vitest';
import { chinaDateTimeLocal, instantOfChinaDateTime } from '../../src/lib/chinaTime.ts';
import { maxScheduleAheadDays, studioScheduleBody } from '../../src/lib/schemas/studio.ts';

describe('the China wall clock of a schedule', () => {
  it('reads as UTC+8 and writes back the same, across the day boundary', () => {
    expect(instantOfChinaDateTime('2026-12-01T09:00')?.toISOString()).toBe('2026-12-01T01:00:00.000Z');
    expect(instantOfChinaDateTime('2026-12-01T07:59:30')?.toISOString()).toBe('2026-11-30T23:59:30.000Z');
    expect(chinaDateTimeLocal('2026-11-30T23:59:30.000Z')).toBe('2026-12-01T07:59');
    expect(chinaDateTimeLocal('2026-11-25T16:30:00Z')).toBe('2026-11-26T00:30');
    const now = new Date();
    now.setUTCSeconds(0, 0);
    expect(instantOfChinaDateTime(chinaDateTimeLocal(now))?.getTime()).toBe(now.getTime());
  });

  it('is no time when the calendar has no such moment or the text is another shape', () => {
    for (const text of [
      '2026-02-30T09:00',
      '2026-12-01T24:00',
      '2026-12-01T09:60',
      '2026-12-01 09:00',
      '2026-12-01T09:00+08:00',
      '2026-12-01',
      '',
    ]) {
      expect(instantOfChinaDateTime(text), text).toBeUndefined();
    }
    expect(instantOfChinaDateTime('2028-02-29T12:00')?.toISOString()).toBe('2028-02-29T04:00:00.000Z');
  });
});

describe('the schedule form’s rules', () => {
  const body = (runAt: string) => ({ action: 'publish', paths: ['news/a.md'], runAt });
  const problem = (runAt: string) => {
    const result = studioScheduleBody.safeParse(body(runAt));
    return result.success ? undefined : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('takes a time after now and at most a year ahead, giving its instant', () => {
    const soon = chinaDateTimeLocal(Date.now() + 2 * 60_000);
    const parsed = studioScheduleBody.parse(body(soon));
    expect(parsed.runAt).toEqual(instantOfChinaDateTime(soon));
    expect(problem(chinaDateTimeLocal(Date.now() + (maxScheduleAheadDays - 1) * 86_400_000))).toBeUndefined();
  });

  it('refuses the past, beyond a year and what is no time, each with its message key at runAt', () => {
    expect(problem(chinaDateTimeLocal(Date.now() - 60_000))).toEqual([['runAt', 'studio.schedule.runAtPast']]);
    expect(problem(chinaDateTimeLocal(Date.now() + (maxScheduleAheadDays + 1) * 86_400_000))).toEqual([
      ['runAt', 'studio.schedule.runAtTooFar'],
    ]);
    expect(problem('2026-02-30T09:00')).toEqual([['runAt', 'studio.schedule.runAtFormat']]);
    expect(problem('next monday')).toEqual([['runAt', 'studio.schedule.runAtFormat']]);
  });

  it('needs an action it knows and at least one item path', () => {
    const result = studioScheduleBody.safeParse({
      action: 'delete',
      paths: [],
      runAt: chinaDateTimeLocal(Date.now() + 3_600_000),
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['action', 'paths']);
  });
});
