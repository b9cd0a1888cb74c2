import { formatDate, formatDateTime, formatDateTimeWithZone, formatTokenDate } from './dates.js';

describe('dates as the portal shows them', () => {
  const at = new Date(2026, 2, 3, 16, 5, 9);

  it("'EE MMM d yyyy h:mm a', in the reader's time zone", () => {
    expect(formatDateTime(at)).toBe('Tue Mar 3 2026 4:05 PM');
    expect(formatDateTime(new Date(2026, 2, 3, 0, 7))).toBe('Tue Mar 3 2026 12:07 AM');
    expect(formatDate(at)).toBe('Tue Mar 3 2026');
  });

  it('with seconds and the time zone for the membership request list', () => {
    expect(formatDateTimeWithZone(at)).toMatch(/^Tue Mar 3 2026 4:05:09 PM \S+$/);
  });

  it('shows a value that is not a date as given, and none as nothing', () => {
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatDateTimeWithZone(null)).toBe('');
  });

  it("tokens: 'YYYY-MM-DD HH:mm' on a 24-hour clock, or the date alone", () => {
    expect(formatTokenDate(at)).toBe('2026-03-03 16:05');
    expect(formatTokenDate(new Date(2026, 10, 9, 0, 7))).toBe('2026-11-09 00:07');
    expect(formatTokenDate(at, false)).toBe('2026-03-03');
    expect(formatTokenDate(at.getTime())).toBe('2026-03-03 16:05');
  });
});
