import { computed, signal } from '@preact/signals';

/**
 * Times and dates of messages, as Zulip writes them: times in the person's chosen clock
 * (`twenty_four_hour_time`; null, at newer feature levels, means the browser's locale decides),
 * and days relative to today (Today, Yesterday, the weekday within the week, else the date).
 */

/** The person's `twenty_four_hour_time`; null follows the locale. */
export const twentyFourHourTime = signal<boolean | null>(null);

/** Takes the setting from `user_settings` or a user_settings event, when it is there. */
export function applyTimeSetting(settings: Record<string, unknown>): void {
  if (!('twenty_four_hour_time' in settings)) return;
  const value = settings.twenty_four_hour_time;
  twentyFourHourTime.value = typeof value === 'boolean' ? value : null;
}

export function clockOptions(twentyFour: boolean | null): Intl.DateTimeFormatOptions {
  if (twentyFour === null) return { hour: 'numeric', minute: '2-digit' };
  return twentyFour ? { hourCycle: 'h23', hour: '2-digit', minute: '2-digit' } : { hourCycle: 'h12', hour: 'numeric', minute: '2-digit' };
}

// Formatters are made once per setting: making one costs more than drawing a row.
const shortTime = computed(() => new Intl.DateTimeFormat(undefined, clockOptions(twentyFourHourTime.value)));
const fullTime = computed(
  () => new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', second: '2-digit', ...clockOptions(twentyFourHourTime.value) }),
);
const writtenTime = computed(
  () => new Intl.DateTimeFormat(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', ...clockOptions(twentyFourHourTime.value) }),
);
const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: 'long' });
const DAY_OF_YEAR = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const DAY_OF_YEAR_YEAR = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
const FULL_DATE = new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });

/** A message's time of day, "08:31" or "8:31 PM". */
export function timeOf(timestamp: number): string {
  return shortTime.value.format(timestamp * 1000);
}

/** The full date and time, for a tooltip. */
export function fullTimeOf(timestamp: number): string {
  return fullTime.value.format(timestamp * 1000);
}

/** A time written in a message (`<time:...>`). */
export function writtenTimeOf(date: Date): string {
  return writtenTime.value.format(date);
}

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** The start of today; changes at midnight, so the relative dates shown change with it. */
export const today = signal(startOfDay(new Date()));
setInterval(() => {
  const now = startOfDay(new Date());
  if (now !== today.value) today.value = now;
}, 60_000);

/** The local day of a timestamp, to tell whether two messages were sent on the same day. */
export function dayOf(timestamp: number): number {
  return startOfDay(new Date(timestamp * 1000));
}

/**
 * A feed shows the same few days on many bars: each day's names are made once (formatting a
 * date costs more than the rest of a recipient bar), and made again when the day changes.
 */
const dayNames = new Map<number, { label: string; full: string }>();
let namedOn = 0;

function namesOfDay(timestamp: number): { label: string; full: string } {
  // Read first, so a component showing a label is drawn again at midnight.
  const now = today.value;
  if (namedOn !== now) {
    dayNames.clear();
    namedOn = now;
  }
  const date = new Date(timestamp * 1000);
  const day = startOfDay(date);
  let names = dayNames.get(day);
  if (!names) dayNames.set(day, (names = { label: labelOf(date, day, now), full: FULL_DATE.format(date) }));
  return names;
}

function labelOf(date: Date, day: number, now: number): string {
  const daysOld = Math.round((now - day) / 86_400_000);
  if (daysOld === 0) return 'Today';
  if (daysOld === 1) return 'Yesterday';
  if (daysOld > 1 && daysOld < 7) return WEEKDAY.format(date);
  return date.getFullYear() === new Date(now).getFullYear() ? DAY_OF_YEAR.format(date) : DAY_OF_YEAR_YEAR.format(date);
}

/** A day as the feed names it: Today, Yesterday, the weekday within the week, else the date (with the year when it is not this one). */
export function dateLabel(timestamp: number): string {
  return namesOfDay(timestamp).label;
}

/** The whole date, for a tooltip: "Wednesday, July 27, 2016". */
export function fullDateOf(timestamp: number): string {
  return namesOfDay(timestamp).full;
}
