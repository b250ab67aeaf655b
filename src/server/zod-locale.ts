import { z } from 'zod';
import { t } from '../lib/i18n/index.ts';

// zod's own messages (the ones not rewritten by validation.ts, and environment errors) in Ukrainian.
const uk = z.locales.uk();
z.config({
  // zod's own words for a malformed time, «Неправильний дата та час ISO», are not Ukrainian grammar;
  // a schema's own message still comes first.
  localeError: (issue) => (issue.code === 'invalid_format' && issue.format === 'datetime' ? t('validation.invalidDate') : uk.localeError(issue)),
});
