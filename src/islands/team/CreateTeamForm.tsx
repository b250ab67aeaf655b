import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { createTeam, LOGO_URL_MAX } from '../../lib/api/teams.ts';
import { TEAM_NAME_MAX } from '../../lib/domain/team.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { loadSession } from '../../lib/stores/session.ts';
import { putTeam } from './store.ts';

/** Shown only while the user has no team: a name (required) and an optional logo link. */
export function CreateTeamForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const logoUrl = String(form.get('logoUrl') ?? '').trim();
    if (!name) {
      setError(t('team.enterName'));
      return;
    }
    setBusy(true);
    setError('');
    try {
      const result = await createTeam(api, { name, logoUrl: logoUrl || null });
      putTeam(result.team);
      void loadSession();
    } catch (caught) {
      setError(isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('team.createError')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card w-full max-w-lg" aria-labelledby="create-team-title">
      <h2 id="create-team-title" className="mb-4 text-xl font-bold">
        {t('team.createTitle')}
      </h2>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <Field label={t('team.nameLabel')} id="team-name" name="name" limit={TEAM_NAME_MAX} autoComplete="off" />
        <Field label={t('team.logoLabel')} id="team-logo" name="logoUrl" type="url" inputMode="url" limit={LOGO_URL_MAX} placeholder="https://" />
        {error && <Notice tone="error">{error}</Notice>}
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? t('team.busy') : t('team.createButton')}
        </button>
      </form>
    </section>
  );
}
