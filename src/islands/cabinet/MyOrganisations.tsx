import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { getMyOrganisations, type MyOrganisations as Mine } from '../../lib/api/organisations.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { organisationPowers } from '../../lib/domain/organisation.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $user } from '../../lib/stores/session.ts';

/**
 * The cabinet's organisations (issue 56): those the reader is in, with their role and a way to
 * manage them, and those they follow; a link to found one. Nothing for a guest.
 */
export default function MyOrganisations() {
  const user = useHydratedStore($user, null);
  const [mine, setMine] = useState<Mine | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!user) return;
    let stale = false;
    getMyOrganisations(api).then(
      (found) => !stale && setMine(found),
      (caught: unknown) => !stale && setProblem(errorMessage(caught, t('org.directory.loadError'))),
    );
    return () => {
      stale = true;
    };
  }, [user]);

  if (!user) return null;
  return (
    <section className="card flex flex-col gap-4" aria-labelledby="my-organisations">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="my-organisations" className="text-lg font-bold">
          {t('org.cabinet.title')}
        </h2>
        <a className="btn-ghost" href="/organisations/new">
          {t('org.directory.create')}
        </a>
      </div>
      {problem && <Notice tone="error">{problem}</Notice>}
      {!mine && !problem && <p className="text-muted">{t('org.manage.loading')}</p>}
      {mine && mine.member.length > 0 && (
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold">{t('org.cabinet.mine')}</h3>
          <ul className="flex flex-col gap-2">
            {mine.member.map((organisation) => (
              <li key={organisation._id} className="flex flex-wrap items-center gap-2 rounded-lg bg-surface-2 px-3 py-2">
                <a href={`/org/${organisation.slug}`} className="min-w-0 flex-1 font-semibold wrap-anywhere">
                  {organisation.name}
                </a>
                <span className="text-sm text-muted">{t(`organisation.roleLabel.${organisation.role}`)}</span>
                {organisationPowers(organisation.role).organise && (
                  <a className="btn-ghost px-3 py-1 text-sm" href={`/org/${organisation.slug}/manage`}>
                    {t('org.manage')}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {mine && (
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold">{t('org.cabinet.following')}</h3>
          {mine.following.length === 0 ? (
            <p className="text-sm text-muted">
              {t('org.cabinet.none')} <a href="/organisations">{t('org.directory.title')}</a>
            </p>
          ) : (
            <ul className="flex flex-wrap gap-2">
              {mine.following.map((organisation) => (
                <li key={organisation._id}>
                  <a href={`/org/${organisation.slug}`} className="inline-flex items-center gap-1 rounded-full bg-surface-2 px-3 py-1 text-sm">
                    {organisation.name}
                    {organisation.verified && <span className="text-success">✓</span>}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
