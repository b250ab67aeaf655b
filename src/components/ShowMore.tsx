import { t } from '../lib/i18n/common.ts';
import { Notice } from './Notice.tsx';

interface Props {
  more: boolean;
  busy: boolean;
  error: string | null;
  onMore: () => void;
}

/** The «show more» button under a paged list, and why the last page failed to load. */
export function ShowMore({ more, busy, error, onMore }: Props) {
  return (
    <>
      {error && <Notice tone="error">{error}</Notice>}
      {more && (
        <button type="button" className="btn-ghost self-center" onClick={onMore} disabled={busy}>
          {busy ? t('list.loadingMore') : t('list.more')}
        </button>
      )}
    </>
  );
}
