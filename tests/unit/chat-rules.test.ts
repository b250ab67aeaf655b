import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGE_MAX, CHAT_POLL_MS, characterCount, chatMessageProblem, chatTime } from '../../src/lib/domain/chat.ts';

describe('chat messages', () => {
  it('refuses empty and whitespace-only text', () => {
    expect(chatMessageProblem('')).toBe('empty');
    expect(chatMessageProblem('   \n\t ')).toBe('empty');
    expect(chatMessageProblem(' привіт ')).toBeNull();
  });

  it('refuses text of nothing but characters that show as nothing, and keeps them inside what shows', () => {
    for (const blank of ['\u200b\u200b', '\u2060 \ufeff', '\u3164', '\u2800\u200d', '\u202e\u00ad'])
      expect(chatMessageProblem(blank), JSON.stringify(blank)).toBe('empty');
    for (const seen of ['👨\u200d👩\u200d👧', 'так\u200b', '❤\ufe0f']) expect(chatMessageProblem(seen), JSON.stringify(seen)).toBeNull();
  });

  it('counts characters after trimming, emoji as one, up to 1000', () => {
    expect(CHAT_MESSAGE_MAX).toBe(1000);
    expect(chatMessageProblem(` ${'я'.repeat(1000)} `)).toBeNull();
    expect(chatMessageProblem('я'.repeat(1001))).toBe('tooLong');
    expect(characterCount('🐺🐺')).toBe(2);
    expect(chatMessageProblem('🐺'.repeat(1000))).toBeNull();
  });

  it('refuses a NUL character, which the database cannot store', () => {
    expect(chatMessageProblem('a\u0000b')).toBe('invalid');
  });

  it('keeps HTML as plain text to be shown as is', () => {
    expect(chatMessageProblem('<img src=x onerror=alert(1)>')).toBeNull();
  });

  it('shows characters 11 to 16 of createdAt as the time', () => {
    expect(chatTime('2025-03-08T14:05:59.123Z', 'UTC')).toBe('14:05');
    expect(chatTime('2025-03-08T00:00:00Z', 'UTC')).toBe('00:00');
    // In the reader's zone: Kyiv is UTC+2 in March and UTC+3 in summer.
    expect(chatTime('2025-03-08T14:05:59.123Z', 'Europe/Kyiv')).toBe('16:05');
    expect(chatTime('2025-07-08T23:30:00Z', 'Europe/Kyiv')).toBe('02:30');
    expect(chatTime('not a date')).toBe('');
  });

  it('polls every six seconds', () => {
    expect(CHAT_POLL_MS).toBe(6000);
  });
});
