import { describe, expect, it } from 'vitest';
import { NOTICE_KINDS } from '../../src/lib/domain/match-day.ts';
import { locales } from '../../src/lib/i18n/index.ts';
import { noticeLetter } from '../../src/server/mail/letters.ts';
import { noticeWords } from '../../src/server/services/notices/notice-words.ts';

const full = { tournament: 'Kyiv <Cup>', opponent: 'Vitalii', score: '2:1', place: '3–4', time: '2030-05-01T16:00:00Z' };
const link = 'https://arena.test/matches/00000000-0000-4000-8000-000000000001';

describe('notice words', () => {
  for (const kind of NOTICE_KINDS) {
    it(`${kind}: a bell line and a letter in each language, with every parameter filled and the link`, () => {
      const [uk, en] = locales.map((locale) => noticeWords(locale, kind, full));
      for (const words of [uk!, en!]) {
        for (const text of Object.values(words)) {
          expect(text.trim()).not.toBe('');
          expect(text).not.toMatch(/[{}]/);
        }
        expect(words.bell).toContain('Kyiv <Cup>');
      }
      expect(en!.bell).not.toBe(uk!.bell);
      expect(en!.subject).not.toBe(uk!.subject);
      expect(uk!.bell).toMatch(/[а-яіїєґ]/i);
      expect(en!.bell).not.toMatch(/[а-яіїєґ]/i);
      for (const locale of locales) {
        const letter = noticeLetter('a@x.test', noticeWords(locale, kind, full), link, 'https://arena.test/cabinet', locale);
        expect(letter.text).toContain(link);
        expect(letter.html).toContain(`href="${link}"`);
        // The title is text in the letter, never markup.
        expect(letter.html).toContain('Kyiv &lt;Cup&gt;');
        expect(letter.language).toBe(locale);
      }
    });
  }

  it('reads well without parameters: nothing left as a raw placeholder', () => {
    for (const kind of NOTICE_KINDS)
      for (const locale of locales) for (const text of Object.values(noticeWords(locale, kind))) expect(text).not.toMatch(/[{}]/);
  });

  it('words the place of a finished tournament, or "participant" when it is not known, and the time of a match', () => {
    expect(noticeWords('en', 'tournamentFinished', { tournament: 'Cup', place: '1' }).bell).toBe('“Cup” has finished. Your result: place 1.');
    expect(noticeWords('uk', 'tournamentFinished', { tournament: 'Cup' }).bell).toBe('Турнір «Cup» завершено. Ваш результат: учасник.');
    expect(noticeWords('en', 'scoreReported', { tournament: 'Cup', opponent: 'B', scoreA: 2, scoreB: 1 }).subject).toBe('B reported the score 2:1');
    expect(noticeWords('uk', 'matchReady', { tournament: 'Cup', opponent: 'B', time: '2030-05-01T16:00:00Z' }).bell).toContain(
      'Початок: 1 травня 2030 р. о 19:00 (за Києвом).',
    );
  });
});
