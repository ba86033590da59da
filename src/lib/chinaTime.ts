/**
 * China time, the business's calendar (UTC+8, no daylight saving): every date and time the portal
 * shows, and every "today", "this month" or whole-day filter, comes from here, so a viewer abroad
 * sees the same day as the China-day filters, the order numbers and the settlement months.
 * Works the same in the browser, the build and the server (Intl with `timeZone`, no local clock).
 */
import type { Locale } from './i18n/locales.ts';

export const chinaTimeZone = 'Asia/Shanghai';
/** The offset written into instants built from China days (`2026-11-26T00:00:00+08:00`). */
export const chinaOffset = '+08:00';
const offsetMs = 8 * 3600_000;

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** The China calendar day of an instant, `YYYY-MM-DD`. */
export function chinaDate(at: string | number | Date = new Date()): string {
  const shifted = new Date(toDate(at).getTime() + offsetMs);
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/** The China calendar month of an instant, `YYYY-MM`. */
export function chinaMonth(at: string | number | Date = new Date()): string {
  return chinaDate(at).slice(0, 7);
}

/** The China calendar year of an instant. */
export function chinaYear(at: string | number | Date = new Date()): number {
  return Number(chinaDate(at).slice(0, 4));
}

/** The first instant of a China day (`YYYY-MM-DD`), ISO 8601 with its offset. */
export function chinaDayStart(day: string): string {
  return `${day}T00:00:00.000${chinaOffset}`;
}

/** The last millisecond of a China day (`YYYY-MM-DD`), ISO 8601 with its offset. */
export function chinaDayEnd(day: string): string {
  return `${day}T23:59:59.999${chinaOffset}`;
}

/**
 * An instant as a China wall clock to the minute, `YYYY-MM-DDTHH:mm`: the value an
 * `<input type="datetime-local">` holds when its time is read as China time (scheduled publishing).
 */
export function chinaDateTimeLocal(at: string | number | Date = new Date()): string {
  const shifted = new Date(toDate(at).getTime() + offsetMs);
  return `${chinaDate(at)}T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}`;
}

/**
 * The instant a China wall clock `YYYY-MM-DDTHH:mm` (or `…:ss`) names, whatever the clock of the
 * machine reading it; undefined when it is no real time (`2026-02-30T09:00`, `24:00`).
 * @example instantOfChinaDateTime('2026-12-01T09:00')?.toISOString() // '2026-12-01T01:00:00.000Z'
 */
export function instantOfChinaDateTime(text: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMs);
  // Date.UTC rolls 30 February over into March: a wall clock that does not come back is no time.
  const back = new Date(at.getTime() + offsetMs);
  const same =
    back.getUTCFullYear() === year &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute;
  return same ? at : undefined;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: chinaTimeZone });
    formats.set(key, format);
  }
  return format;
}

/** A moment as China date and time in the locale's words: "2026年11月26日 00:30", "Nov 26, 2026, 12:30 AM". */
export function formatChinaDateTime(value: string | number | Date, locale: Locale): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return formatter(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A moment's China date in the locale's words: "2026年11月26日", "Nov 26, 2026". */
export function formatChinaDate(value: string | number | Date, locale: Locale): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return formatter(locale, { dateStyle: 'medium' }).format(date);
}

/**
 * A calendar day (`YYYY-MM-DD`, already a China day, such as a news date) in the locale's words.
 * Noon China time keeps it the same day in every time zone.
 */
export function formatChinaDay(day: string, locale: Locale): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? formatChinaDate(`${day}T12:00:00${chinaOffset}`, locale) : day;
}

/** A calendar month (`YYYY-MM`) in the locale's words: "2026年11月", "November 2026". */
export function formatChinaMonth(month: string, locale: Locale): string {
  if (!/^\d{4}-\d{2}$/.test(month)) return month;
  return formatter(locale, { year: 'numeric', month: 'long' }).format(new Date(`${month}-15T12:00:00${chinaOffset}`));
}
