import { useState, useSyncExternalStore, type SubmitEvent } from 'react';
import { Field, TextAreaField } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import type { NewsInput, NewsItem } from '../../lib/api/news.ts';
import { ADDRESS_MAX, isSafeAddress } from '../../lib/domain/address.ts';
import { NEWS_CONTENT_MAX, NEWS_TITLE_MAX } from '../../lib/domain/news.ts';
import { t } from '../../lib/i18n/index.ts';

interface NewsFormProps {
  /** Makes the ids of the fields unique on the page. */
  idPrefix: string;
  /** The news item being edited; a new one when absent. */
  initial?: NewsItem;
  submitLabel: string;
  /** Saves the news; throws on failure (the server's message is shown). */
  onSubmit: (body: NewsInput) => Promise<void>;
  onCancel?: () => void;
  /** Shown after a successful save, when the form stays on screen (it is then emptied). */
  successMessage?: string;
}

const noSubscription = () => () => {};

/** The news form of SPEC §2: title and content required, image, link and archive optional. */
export function NewsForm({ idPrefix, initial, submitLabel, onSubmit, onCancel, successMessage }: NewsFormProps) {
  const [busy, setBusy] = useState(false);
  // Until hydrated the button stays disabled, so an early click cannot submit the form natively.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const id = (name: string) => `${idPrefix}-${name}`;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const body: NewsInput = {
      title: text('title'),
      content: text('content'),
      imageUrl: text('imageUrl') || null,
      link: text('link') || null,
      archived: form.get('archived') === 'on',
    };
    if (!body.title || !body.content) {
      setResult({ tone: 'error', text: t('validation.required', { field: t(body.title ? 'field.content' : 'field.title') }) });
      return;
    }
    for (const [field, value] of [['field.imageUrl', body.imageUrl], ['field.link', body.link]] as const) {
      if (value && !isSafeAddress(value)) {
        setResult({ tone: 'error', text: t('news.invalidUrl', { field: t(field) }) });
        return;
      }
    }
    setBusy(true);
    setResult(null);
    try {
      await onSubmit(body);
      if (successMessage) {
        setResult({ tone: 'success', text: successMessage });
        formElement.reset();
      }
    } catch (caught) {
      setResult({ tone: 'error', text: errorMessage(caught, t('news.saveError')) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label={submitLabel}>
      <Field label={t('news.formTitle')} id={id('title')} name="title" required limit={NEWS_TITLE_MAX} defaultValue={initial?.title} />
      <div className="flex flex-col gap-1">
        <TextAreaField
          label={t('news.formContent')}
          id={id('content')}
          name="content"
          className="min-h-40 leading-relaxed"
          rows={8}
          required
          limit={NEWS_CONTENT_MAX}
          defaultValue={initial?.content}
          aria-describedby={id('content-hint')}
        />
        <p id={id('content-hint')} className="text-xs text-muted">
          {t('news.formContentHint')}
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t('news.formImageUrl')}
          id={id('imageUrl')}
          name="imageUrl"
          inputMode="url"
          limit={ADDRESS_MAX}
          defaultValue={initial?.imageUrl ?? ''}
          placeholder="https://…"
          aria-describedby={id('url-hint')}
        />
        <Field
          label={t('news.formLink')}
          id={id('link')}
          name="link"
          inputMode="url"
          limit={ADDRESS_MAX}
          defaultValue={initial?.link ?? ''}
          placeholder="https://…"
          aria-describedby={id('url-hint')}
        />
      </div>
      <p id={id('url-hint')} className="-mt-2 text-xs text-muted">
        {t('news.formUrlHint')}
      </p>
      <label htmlFor={id('archived')} className="flex items-center gap-2 text-sm font-medium">
        <input id={id('archived')} name="archived" type="checkbox" className="size-4 accent-primary" defaultChecked={initial?.archived ?? false} />
        {t('news.formArchived')}
      </label>
      {result && <Notice tone={result.tone}>{result.text}</Notice>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={busy || !hydrated}>
          {busy ? t('news.busy') : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn-ghost" onClick={onCancel} disabled={busy}>
            {t('news.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
