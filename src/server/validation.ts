import type { z } from 'zod';
import type { Context } from 'hono';
import { isMessageKey, t } from '../lib/i18n/index.ts';

/** Label of a body field in messages: the catalog's name when it has one. */
function label(path: PropertyKey[]): string {
  const name = String(path[path.length - 1] ?? '');
  const key = `field.${name}`;
  return isMessageKey(key) ? t(key) : name;
}

/** One Ukrainian sentence for the first problem zod found. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = label(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? t('validation.required', { field })
        : t('validation.invalidType', { field });
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) <= 1
        ? t('validation.required', { field })
        : t('validation.tooShort', { field, min: Number(issue.minimum) });
    case 'too_big':
      return t('validation.tooLong', { field, max: Number(issue.maximum) });
    case 'invalid_format':
      if (issue.format === 'email') return t('validation.invalidEmail');
      if (issue.format === 'uuid') return t('validation.invalidId');
      return issue.message;
    case 'unrecognized_keys':
      return t('validation.unknownField', { field: issue.keys.join(', ') });
    default:
      return issue.message || t('validation.invalidBody');
  }
}

/** The zod-openapi hook: a failed validation answers 400 `{ message }` and the handler never runs. */
export function validationHook(
  result: { success: true } | { success: false; error: z.ZodError },
  c: Context,
): Response | undefined {
  if (result.success) return undefined;
  const first = result.error.issues[0];
  return c.json({ message: first ? describeIssue(first) : t('validation.invalidBody') }, 400);
}
