/**
 * Dates as the portal shows them (spec section 9): 'EE MMM d yyyy h:mm a', e.g.
 * 'Tue Mar 3 2026 4:05 PM', in the reader's time zone.
 */
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function asDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** 'h:mm AM' or, with seconds, 'h:mm:ss AM'. */
function timeOf(date: Date, withSeconds: boolean): string {
  const hours = date.getHours();
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const seconds = withSeconds ? `:${String(date.getSeconds()).padStart(2, '0')}` : '';
  return `${hour}:${minutes}${seconds} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** 'Tue Mar 3 2026 4:05 PM'; a value that is not a date is shown as given, none as ''. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = asDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${formatDate(date)} ${timeOf(date, false)}`;
}

/** 'Tue Mar 3 2026' (the date part alone). */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = asDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${WEEKDAYS[date.getDay()]} ${MONTHS[date.getMonth()]} ${date.getDate()} ${date.getFullYear()}`;
}

/** The reader's time zone's short name at that moment ('EST', 'GMT+1'). */
function zoneOf(date: Date): string {
  return new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** 'Tue Mar 3 2026 4:05:09 PM EST': with seconds and the time zone (spec section 2, the membership request list). */
export function formatDateTimeWithZone(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = asDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${formatDate(date)} ${timeOf(date, true)} ${zoneOf(date)}`.trim();
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Token dates (spec section 9: "tokens year-month-day hour:minute"): 'YYYY-MM-DD HH:mm' in the
 * reader's time zone, or 'YYYY-MM-DD' without the time.
 */
export function formatTokenDate(value: string | number | Date, withTime = true): string {
  const date = asDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  return withTime ? `${day} ${two(date.getHours())}:${two(date.getMinutes())}` : day;
}
