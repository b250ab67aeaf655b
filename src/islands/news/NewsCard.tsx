import type { ReactNode } from 'react';
import { fallbackTo } from '../../components/fallback-image.ts';
import type { NewsItem } from '../../lib/api/news.ts';
import { newsPreview } from '../../lib/domain/news.ts';
import { formatDate } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { newsLinkProps, NewsText } from './NewsText.tsx';

/** Picture shown instead of a news image that fails to load (SPEC §8: broken image → default picture). */
export const NEWS_FALLBACK_IMAGE = '/og-default.png';

const showFallbackImage = fallbackTo(NEWS_FALLBACK_IMAGE);

/**
 * One news card. Collapsed it shows the title, date and the 100-character preview; a click on it
 * opens the full text. It is a `<details>`, so it opens and closes without JavaScript too.
 */
/** `priority`: the first card, whose picture is usually the page's largest paint, loads it at once. */
export function NewsCard({ item, actions, priority = false }: { item: NewsItem; actions?: ReactNode; priority?: boolean }) {
  const titleId = `news-title-${item._id}`;
  return (
    <article className="card flex flex-col gap-3" aria-labelledby={titleId}>
      <details className="group">
        {/* Only phrasing and heading content inside <summary>, so the markup stays valid. */}
        <summary className="flex cursor-pointer list-none flex-col gap-2 rounded-lg [&::-webkit-details-marker]:hidden">
          {item.imageUrl && (
            <img
              src={item.imageUrl}
              alt=""
              width={800}
              height={450}
              loading={priority ? 'eager' : 'lazy'}
              fetchPriority={priority ? 'high' : 'auto'}
              decoding="async"
              onError={showFallbackImage}
              className="h-40 w-full rounded-lg object-cover sm:h-52"
            />
          )}
          <h2 id={titleId} className="flex items-start justify-between gap-3 text-lg leading-snug font-bold">
            <span className="wrap-anywhere">{item.title}</span>
            <svg viewBox="0 0 24 24" className="mt-0.5 size-5 shrink-0 text-muted transition-transform group-open:rotate-180" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
              <path d="M6 9l6 6 6-6" />
            </svg>
          </h2>
          <span className="flex flex-wrap items-center gap-2 text-xs text-muted">
            <time dateTime={item.date}>{formatDate(item.date)}</time>
            {item.archived && <span className="rounded-full border border-line px-2 py-0.5">{t('news.archivedBadge')}</span>}
          </span>
          <span className="text-sm text-muted wrap-anywhere group-open:hidden">{newsPreview(item.content)}</span>
        </summary>
        <div className="mt-4 flex flex-col gap-4">
          <NewsText content={item.content} />
          <p className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
            {item.link && <a {...newsLinkProps(item.link)}>{t('news.readMore')}</a>}
            <a href={`/news/${item._id}`}>{t('news.permalink')}</a>
          </p>
        </div>
      </details>
      {actions && <div className="flex flex-wrap gap-2 border-t border-line pt-3">{actions}</div>}
    </article>
  );
}
