import { createNews } from '../../lib/api/news.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { NewsForm } from './NewsForm.tsx';

/** The admin panel's news form (SPEC §2): publishes a news item; editing is on the News page. */
export default function NewsAdminPanel() {
  return (
    <section className="card flex flex-col gap-4" aria-labelledby="admin-news-heading">
      <h2 id="admin-news-heading" className="text-lg font-bold">
        {t('news.adminTitle')}
      </h2>
      <NewsForm
        idPrefix="admin-news"
        submitLabel={t('news.submitAdd')}
        successMessage={t('news.added')}
        onSubmit={async (body) => {
          await createNews(api, body);
        }}
      />
      <p className="text-sm text-muted">
        {t('news.adminManage')} <a href="/news">{t('news.adminManageLink')}</a>
      </p>
    </section>
  );
}
