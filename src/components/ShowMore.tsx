import type { MouseEvent } from 'react';
import { t } from '../lib/i18n/common.ts';
import { Notice } from './Notice.tsx';

interface Props {
  more: boolean;
  busy: boolean;
  error: string | null;
  onMore: () => void;
  /**
   * The address of the next pages (`nextPageHref`), for lists the server renders: before the island
   * runs, or without JavaScript, «show more» is a link there; once it runs, a tap appends in place.
   */
  href?: string | undefined;
}

/** The «show more» control under a paged list, and why the last page failed to load. */
export function ShowMore({ more, busy, error, onMore, href }: Props) {
  const label = busy ? t('list.loadingMore') : t('list.more');
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window is the reader's choice; a plain tap stays on the page.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (!busy) onMore();
  };
  return (
    <>
      {error && <Notice tone="error">{error}</Notice>}
      {more &&
        (href ? (
          <a href={href} className="btn-ghost self-center aria-disabled:opacity-60" onClick={follow} aria-disabled={busy || undefined}>
            {label}
          </a>
        ) : (
          <button type="button" className="btn-ghost self-center" onClick={onMore} disabled={busy}>
            {label}
          </button>
        ))}
    </>
  );
}
