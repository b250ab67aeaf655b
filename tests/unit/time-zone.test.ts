import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, OFFERED_TIME_ZONES } from '../../src/lib/domain/time-zone.ts';
import { formatDay, fromLocalInputValue, toLocalInputValue } from '../../src/lib/domain/tournament-dates.ts';
import { zoneMark } from '../../src/lib/i18n/zone-mark.ts';
import { noticeWords } from '../../src/server/services/notices/notice-words.ts';

describe("a tournament's own time zone (issue 57)", () => {
  it('takes IANA names in any case and keeps the canonical spelling', () => {
    expect(canonicalTimeZone('Europe/Warsaw')).toBe('Europe/Warsaw');
    expect(canonicalTimeZone('europe/warsaw')).toBe('Europe/Warsaw');
    expect(canonicalTimeZone(' America/New_York ')).toBe('America/New_York');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    // Kyiv's under any of its names is the site's zone.
    for (const kyiv of ['Europe/Kyiv', 'Europe/Kiev', 'europe/kyiv']) expect(canonicalTimeZone(kyiv), kyiv).toBe('Europe/Kyiv');
    for (const zone of OFFERED_TIME_ZONES) expect(canonicalTimeZone(zone), zone).toBe(zone);
  });

  it('refuses what is not a zone: empty, unknown, offsets, look-alike letters, NUL, huge, paths', () => {
    for (const value of [
      '',
      '   ',
      'Mars/Olympus',
      'Kyiv',
      '+02:00',
      'GMT+2 ',
      'Еurope/Kyiv',
      'Europe/Kyiv\u0000',
      'Europe/Kyiv/..',
      '../etc/passwd',
      'Europe/'.repeat(20),
      'a'.repeat(10_000),
    ]) {
      expect(canonicalTimeZone(value), JSON.stringify(value.slice(0, 40))).toBeNull();
    }
  });

  it('reads and writes form values in the zone given, through summer time', () => {
    expect(toLocalInputValue('2031-06-01T16:00:00Z', 'Europe/Warsaw')).toBe('2031-06-01T18:00');
    expect(fromLocalInputValue('2031-06-01T18:00', 'Europe/Warsaw')).toBe('2031-06-01T16:00:00.000Z');
    expect(fromLocalInputValue('2031-01-15T18:00', 'America/New_York')).toBe('2031-01-15T23:00:00.000Z');
    expect(fromLocalInputValue('2031-06-01T18:00', 'UTC')).toBe('2031-06-01T18:00:00.000Z');
    // Kyiv's stays the default.
    expect(fromLocalInputValue('2031-06-01T18:00')).toBe('2031-06-01T15:00:00.000Z');
    // 23:30 UTC is the next day in Kyiv, the same day in New York.
    expect(formatDay('2031-03-10T23:30:00Z')).toBe('2031-03-11');
    expect(formatDay('2031-03-10T23:30:00Z', 'America/New_York')).toBe('2031-03-10');
  });

  it('names the zone after a time: Kyiv as always, any other by its name, in either language', () => {
    expect(zoneMark('Europe/Kyiv', 'uk')).toBe('(за Києвом)');
    expect(zoneMark('Europe/Kyiv', 'en')).toBe('(Kyiv time)');
    expect(zoneMark('Europe/Warsaw', 'uk')).toBe('(за центральноєвропейським часом)');
    expect(zoneMark('Europe/Warsaw', 'en')).toBe('(Central European Time)');
    expect(zoneMark('UTC', 'en')).toBe('(Coordinated Universal Time)');
  });

  it("words a match's start in the tournament's zone when its notice carries one", () => {
    const params = { tournament: 'Cup', opponent: 'B', time: '2030-05-01T16:00:00Z' };
    expect(noticeWords('uk', 'matchReady', { ...params, timeZone: 'Europe/Warsaw' }).bell).toContain(
      'Початок: 1 травня 2030 р. о 18:00 (за центральноєвропейським часом).',
    );
    expect(noticeWords('en', 'matchReady', { ...params, timeZone: 'Europe/Warsaw' }).lead).toContain('Starts: 1 May 2030 at 18:00 (Central European Time).');
    expect(noticeWords('uk', 'matchReady', params).bell).toContain('Початок: 1 травня 2030 р. о 19:00 (за Києвом).');
  });
});
