import { useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { createOrganisation, type OrganisationInput } from '../../lib/api/organisations.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { t } from '../../lib/i18n/index.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';
import { OrganisationForm } from './OrganisationForm.tsx';

/** Founding an organisation (issue 56): the founder owns it and goes on to manage it. */
export default function CreateOrganisation() {
  const user = useHydratedStore($user, null);
  const loading = useHydratedStore($sessionLoading, true);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (loading) return <p className="text-muted">{t('org.manage.loading')}</p>;
  if (!user) {
    return (
      <div className="flex flex-col gap-3">
        <p>{t('org.new.signIn')}</p>
        <a className="btn-primary self-start" href="/login">
          {t('nav.signIn')}
        </a>
      </div>
    );
  }

  async function save(body: OrganisationInput) {
    setBusy(true);
    setProblem(null);
    try {
      const { api } = await import('../../lib/stores/api.ts');
      const saved = await createOrganisation(api, body);
      window.location.assign(`/org/${saved.organisation.slug}/manage`);
    } catch (caught) {
      setProblem(isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('org.manage.failed')));
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-4">
      {problem && <Notice tone="error">{problem}</Notice>}
      <OrganisationForm busy={busy} submitLabel={t('org.new.create')} onSubmit={(body) => void save(body)} />
    </div>
  );
}
