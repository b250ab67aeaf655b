import '../zod-locale.ts';
import type { z } from 'zod';
import type { Context } from 'hono';
import { unsafeTextAt } from '../../lib/api/input.ts';
import { currentLocale, isMessageKey, plural, t } from '../../lib/i18n/index.ts';

/** Label of a body field in messages: the catalog's name when it has one. */
function label(path: PropertyKey[]): string {
  const name = String(path[path.length - 1] ?? '');
  const key = `field.${name}`;
  return isMessageKey(key) ? t(key) : name;
}

/** The value found at `path` inside `input`, or undefined. */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** "32 символів" / "32 characters": in the reader's language, like the sentence around it. */
const characters = (n: number | bigint) => plural(currentLocale(), 'count.characters', Number(n));

/** One sentence, in the reader's language, for the first problem zod found in `input`. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.path.length === 0 && issue.code === 'invalid_type') return t('validation.invalidBody');
  const field = label(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const value = valueAt(input, issue.path);
      return value === undefined || value === null ? t('validation.required', { field }) : t('validation.invalidType', { field });
    }
    case 'too_small':
      if (issue.origin === 'number' || issue.origin === 'bigint') return t('validation.tooSmall', { field, min: Number(issue.minimum) });
      if (issue.origin !== 'string') return t('validation.tooShort', { field, min: Number(issue.minimum) });
      return Number(issue.minimum) <= 1 ? t('validation.required', { field }) : t('validation.tooShort', { field, min: characters(issue.minimum) });
    case 'too_big':
      if (issue.origin === 'number' || issue.origin === 'bigint') return t('validation.tooBig', { field, max: Number(issue.maximum) });
      return issue.origin === 'string'
        ? t('validation.tooLong', { field, max: characters(issue.maximum) })
        : t('validation.tooLong', { field, max: Number(issue.maximum) });
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

/**
 * The zod-openapi hook, run for every part of a request a route validates (path, query, body): a
 * failed validation answers 400 `{ message }` and the handler never runs. Text that no field may
 * hold (`lib/api/input.ts`) is refused here too, for every field at once.
 */
export function validationHook(
  result: { success: true; data?: unknown } | { success: false; error: z.ZodError; data?: unknown },
  c: Context,
): Response | undefined {
  // The input as sent when it failed, as parsed when it passed: either way no field may hold such text.
  const unsafe = unsafeTextAt(result.data);
  if (unsafe) return c.json({ message: unsafe.length === 0 ? t('validation.invalidBody') : t('validation.unsafeText', { field: label(unsafe) }) }, 400);
  if (result.success) return undefined;
  const first = tightest(result.error.issues);
  return c.json({ message: first ? describeIssue(first, result.data) : t('validation.invalidBody') }, 400);
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) => a.length === b.length && a.every((key, i) => key === b[i]);

/**
 * The first issue, or, when it is a bound, the tightest bound of its field: an integer of 1e308
 * breaks both the safe-integer bound zod checks first and the field's own maximum, and the reader
 * needs the field's.
 */
export function tightest(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue | undefined {
  const first = issues[0];
  if (!first || (first.code !== 'too_big' && first.code !== 'too_small')) return first;
  let best = first;
  for (const issue of issues) {
    if (issue.code !== first.code || !samePath(issue.path, first.path)) continue;
    if (issue.code === 'too_big' && best.code === 'too_big' && Number(issue.maximum) < Number(best.maximum)) best = issue;
    if (issue.code === 'too_small' && best.code === 'too_small' && Number(issue.minimum) > Number(best.minimum)) best = issue;
  }
  return best;
}
