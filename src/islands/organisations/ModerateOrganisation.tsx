import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { moderateOrganisation, type ModerationInput } from '../../lib/api/organisations.ts';
import { SUSPENSION_REASON_MAX } from '../../lib/domain/organisation.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { t } from '../../lib/i18n/index.ts';
import { $isAdmin } from '../../lib/stores/session.ts';

interface Props {
  organisationId: string;
  verified: boolean;
  suspended: boolean;
}

/**
 * The platform admin's controls on an organisation's page (issue 56): verify it or take the badge
 * away, suspend it with a reason (its owner is told) or lift the suspension. Nothing for anyone else.
 */
export default function ModerateOrganisation({ organisationId, verified: initialVerified, suspended: initialSuspended }: Props) {
  const isAdmin = useHydratedStore($isAdmin, false);
  const [verified, setVerified] = useState(initialVerified);
  const [suspended, setSuspended] = useState(initialSuspended);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  if (!isAdmin) return null;

  async function send(body: ModerationInput) {
    setBusy(true);
    setNotice(null);
    try {
      const { api } = await import('../../lib/stores/api.ts');
      const saved = await moderateOrganisation(api, organisationId, body);
      setVerified(saved.organisation.verified);
      setSuspended(saved.organisation.suspended !== null);
      setNotice({ tone: 'success', text: saved.message });
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('org.manage.failed')) });
    } finally {
      setBusy(false);
    }
  }

  function onSuspend(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    void send({ suspended: true, reason });
  }

  return (
    <section aria-labelledby="org-moderation" className="card flex flex-col gap-3 border-accent">
      <h2 id="org-moderation" className="text-lg font-bold">
        {t('org.moderation.title')}
      </h2>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-ghost" disabled={busy} onClick={() => void send({ verified: !verified })}>
          {t(verified ? 'org.moderation.unverify' : 'org.moderation.verify')}
        </button>
        {suspended && (
          <button type="button" className="btn-ghost" disabled={busy} onClick={() => void send({ suspended: false })}>
            {t('org.moderation.lift')}
          </button>
        )}
      </div>
      {!suspended && (
        <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={onSuspend}>
          <Field label={t('org.moderation.reason')} id="org-suspend-reason" name="reason" required limit={SUSPENSION_REASON_MAX} wrapperClassName="min-w-0 sm:flex-1" />
          <button type="submit" className="btn-ghost self-start text-danger sm:self-auto" disabled={busy}>
            {t('org.moderation.suspend')}
          </button>
        </form>
      )}
    </section>
  );
}
