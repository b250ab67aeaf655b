import { afterEach, describe, expect, it } from 'vitest';
import { zoneName } from '../../src/lib/i18n/format.ts';
import { setLocaleResolver } from '../../src/lib/i18n/index.ts';

/* Times are shown with their zone, named as readers say it (issue 57). */

afterEach(() => setLocaleResolver(() => 'uk'));

describe('zoneName', () => {
  it('names a zone in the reader’s language, generic rather than summer or winter time', () => {
    expect(zoneName('Europe/Warsaw')).toBe('за центральноєвропейським часом');
    expect(zoneName('America/New_York')).toBe('за північноамериканським східним часом');
    expect(zoneName('Europe/Warsaw', 'en')).toBe('Central European Time');
    setLocaleResolver(() => 'en');
    expect(zoneName('Europe/Kyiv')).toBe('Eastern European Time');
  });

  it('names UTC in full rather than as an offset', () => {
    expect(zoneName('UTC')).toBe('за всесвітнім координованим часом');
    expect(zoneName('UTC', 'en')).toBe('Coordinated Universal Time');
  });
});
