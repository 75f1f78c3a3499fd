/**
 * Review dates against the calendar of the business: no review or owner's response
 * may be dated after today. "Today" moves, so this is checked on every check and
 * build, on the dates as written (validate.ts, src/build/prepare-content.ts).
 */
import { dateIn, isIsoDate } from '../dates.ts';
import type { ContentProblem } from './problem.ts';
import type { Business } from './schema.ts';

/** A review's date and its response's, each null where missing or not a real date. */
export interface ReviewDates {
  date: string | null;
  response: string | null;
}

export function writtenDates(data: Record<string, unknown>): ReviewDates {
  const real = (value: unknown) => (typeof value === 'string' && isIsoDate(value) ? value : null);
  const response = data.response;
  return { date: real(data.date), response: response && typeof response === 'object' ? real((response as Record<string, unknown>).date) : null };
}

/** "Today" for the business: the date of `now` in its time zone (business.json `time_zone`), else in UTC. */
export function businessToday(business: Business | null, now: Date): { date: string; zone: string } {
  const zone = business?.time_zone ?? 'UTC';
  return { date: dateIn(now, zone), zone };
}

/** A review or an owner's response dated after today: it would top every feed and date the datasets in the future. */
export function reviewDateProblems(file: string, dates: ReviewDates, today: { date: string; zone: string }): ContentProblem[] {
  const dated = [['date', dates.date], ['response.date', dates.response]] as const;
  return dated.flatMap(([field, date]) =>
    date && date > today.date
      ? [{ file, field, message: `${date} is in the future; a date may be at most today, ${today.date} (${today.zone})` }]
      : [],
  );
}
