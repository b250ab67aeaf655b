import { useEffect, useRef, useState, type InputHTMLAttributes, type ReactNode, type RefObject, type TextareaHTMLAttributes } from 'react';
import { currentLocale, plural, t } from '../lib/i18n/index.ts';

/** From how many characters on the counter shows: the last tenth of the limit, and never fewer than the last 10. */
export const counterFrom = (limit: number) => limit - Math.max(10, Math.ceil(limit / 10));

const characters = (n: number) => plural(currentLocale(), 'count.characters', n);

/** The sentence for a value of `length` characters in a field that takes `limit`: what is left, or how far over it is. */
export function limitText(label: string, length: number, limit: number): string {
  return length > limit
    ? t('limit.over', { field: label, max: characters(limit), count: length })
    : t('limit.left', { used: length, max: characters(limit) });
}

interface Limited {
  label: string;
  id: string;
  /** Classes of the block around label and control (`className` is the control's). */
  wrapperClassName?: string;
  /** The most characters the field takes (the `*_MAX` constants in src/lib/api/limits.ts, which the schemas use too). */
  limit?: number | undefined;
  children?: ReactNode;
}

/**
 * The counter of a field with a limit. It shows (in the label's row, so nothing moves) from near the
 * limit on; over it the field is marked invalid and its form is not sent (the field is focused and
 * says why instead). The input itself never cuts text: pasting too much is shown, not silently
 * shortened. Screen readers hear the limit with the field and, near it, what is left (politely).
 */
export function useLengthLimit({
  ref,
  label,
  id,
  limit,
  value,
  defaultValue,
}: {
  /** The input or textarea. */
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  label: string;
  id: string;
  limit: number | undefined;
  value?: unknown;
  defaultValue?: unknown;
}) {
  const [typed, setLength] = useState(String(defaultValue ?? '').length);
  const length = value === undefined ? typed : String(value).length;
  const over = limit !== undefined && length > limit;

  // An uncontrolled field's length follows the element: typing, pasting, or a form reset. (A
  // controlled one's comes from `value`: a state update from a native listener would run before
  // React's onChange and put the old value back.)
  const controlled = value !== undefined;
  useEffect(() => {
    const element = ref.current;
    if (!element || limit === undefined || controlled) return;
    const update = () => setLength(element.value.length);
    update();
    const form = element.form;
    const afterReset = () => setTimeout(update);
    element.addEventListener('input', update);
    form?.addEventListener('reset', afterReset);
    return () => {
      element.removeEventListener('input', update);
      form?.removeEventListener('reset', afterReset);
    };
  }, [ref, limit, controlled]);

  // Over the limit, the form's submit stops here, before the form's own handler (React listens at the root).
  useEffect(() => {
    const element = ref.current;
    const form = element?.form;
    if (!element || !form || limit === undefined) return;
    element.setCustomValidity(over ? limitText(label, length, limit) : '');
    if (!over) return;
    const refuse = (event: Event) => {
      event.preventDefault();
      event.stopImmediatePropagation();
      element.focus();
      element.reportValidity();
    };
    form.addEventListener('submit', refuse, true);
    return () => form.removeEventListener('submit', refuse, true);
  }, [ref, over, label, limit, length]);

  const near = limit !== undefined && length >= counterFrom(limit);
  const counter =
    limit === undefined ? null : (
      <span aria-hidden="true" className={`shrink-0 text-xs tabular-nums ${over ? 'font-bold text-danger' : 'text-muted'} ${near ? '' : 'invisible'}`}>
        {length}/{limit}
      </span>
    );
  const described: { 'aria-describedby'?: string; 'aria-invalid'?: true } = limit === undefined ? {} : { 'aria-describedby': `${id}-limit`, ...(over ? { 'aria-invalid': true as const } : {}) };
  const announcement =
    limit === undefined ? null : (
      <>
        <span id={`${id}-limit`} className="sr-only">
          {t('limit.note', { max: characters(limit) })}
        </span>
        <span aria-live="polite" className="sr-only">
          {near ? limitText(label, length, limit) : ''}
        </span>
      </>
    );
  // `near`: whether the counter shows, for a field that keeps room for it only then (the chat's line).
  return { counter, described, announcement, near };
}

function LabelRow({ label, id, counter }: { label: string; id: string; counter: ReactNode }) {
  return (
    <span className="flex items-baseline justify-between gap-2 text-sm font-medium">
      <label htmlFor={id}>{label}</label>
      {counter}
    </span>
  );
}

/** A labelled input: the label is always visible and tied to the input; with `limit`, a counter (see `useLengthLimit`). */
export function Field({ label, id, limit, className, wrapperClassName, ...input }: InputHTMLAttributes<HTMLInputElement> & Limited) {
  const ref = useRef<HTMLInputElement>(null);
  const { counter, described, announcement } = useLengthLimit({ ref, label, id, limit, value: input.value, defaultValue: input.defaultValue });
  const describedBy = [input['aria-describedby'], described['aria-describedby']].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex flex-col gap-1 text-sm font-medium ${wrapperClassName ?? ''}`}>
      <LabelRow label={label} id={id} counter={counter} />
      <input ref={ref} id={id} className={`field aria-[invalid=true]:border-danger ${className ?? ''}`} {...input} aria-invalid={described['aria-invalid'] ?? input['aria-invalid']} aria-describedby={describedBy} />
      {announcement}
    </div>
  );
}

/** A labelled textarea, like `Field`. */
export function TextAreaField({ label, id, limit, className, wrapperClassName, ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & Limited) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const { counter, described, announcement } = useLengthLimit({ ref, label, id, limit, value: area.value, defaultValue: area.defaultValue });
  const describedBy = [area['aria-describedby'], described['aria-describedby']].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex flex-col gap-1 ${wrapperClassName ?? ''}`}>
      <LabelRow label={label} id={id} counter={counter} />
      <textarea ref={ref} id={id} className={`field aria-[invalid=true]:border-danger ${className ?? ''}`} {...area} aria-invalid={described['aria-invalid'] ?? area['aria-invalid']} aria-describedby={describedBy} />
      {announcement}
    </div>
  );
}
