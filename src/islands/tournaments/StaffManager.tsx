import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { EMAIL_MAX } from '../../lib/api/limits.ts';
import { addStaff, removeStaff, type StaffMember, type StaffSaved } from '../../lib/api/staff.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { MAX_TOURNAMENT_STAFF } from '../../lib/domain/organisers.ts';
import { profilePath } from '../../lib/domain/participant.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $isAdmin } from '../../lib/stores/session.ts';

interface Props {
  tournamentId: string;
  /** The organisers as the server rendered them; the island keeps its own copy after each change. */
  staff: StaffMember[];
}

/**
 * The admin's list of a tournament's co-organisers (issue 23, decision 016): add one by nickname or
 * email, remove one after a confirmation. Only the admin manages staff; a co-organiser sees the
 * page's public list like everyone. Nothing until hydrated, as the server rendered.
 */
export default function StaffManager({ tournamentId, staff: initial }: Props) {
  const isAdmin = useHydratedStore($isAdmin, false);
  const [staff, setStaff] = useState(initial);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  if (!isAdmin) return null;

  async function run(key: string, change: () => Promise<StaffSaved>, onDone?: () => void) {
    setBusy(key);
    setNotice(null);
    try {
      const saved = await change();
      setStaff(saved.staff);
      setNotice({ tone: 'success', text: saved.message });
      onDone?.();
    } catch (caught) {
      setNotice({ tone: 'error', text: isNetworkFailure(caught) ? t('error.connection') : errorMessage(caught, t('staff.failed')) });
    } finally {
      setBusy(null);
    }
  }

  function onAdd(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const user = String(new FormData(form).get('user') ?? '').trim();
    if (!user) {
      setNotice({ tone: 'error', text: t('staff.enterUser') });
      return;
    }
    void run('add', () => addStaff(api, tournamentId, { user }), () => form.reset());
  }

  function onRemove(member: StaffMember) {
    if (!window.confirm(t('staff.removeConfirm', { name: member.username }))) return;
    void run(`remove:${member._id}`, () => removeStaff(api, tournamentId, member._id));
  }

  const full = staff.length >= MAX_TOURNAMENT_STAFF;
  return (
    <section aria-labelledby="staff-manage-title" className="card flex flex-col gap-4 border-accent">
      <div className="flex flex-col gap-1">
        <h2 id="staff-manage-title" className="text-lg font-bold">
          {t('staff.manageTitle')}
        </h2>
        <p className="text-sm text-muted">{t('staff.manageHint')}</p>
      </div>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {staff.length === 0 ? (
        <p className="text-sm text-muted">{t('staff.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label={t('staff.count', { count: staff.length, max: MAX_TOURNAMENT_STAFF })}>
          {staff.map((member) => (
            <li key={member._id} className="flex items-center gap-3 rounded-lg bg-surface-2 px-3 py-2">
              <UserAvatar user={member} href={profilePath('user', member._id)} className="min-w-0 flex-1" />
              <button
                type="button"
                className="btn-ghost px-3 py-1 text-xs text-danger"
                aria-label={t('staff.removeLabel', { name: member.username })}
                disabled={busy !== null}
                onClick={() => onRemove(member)}
              >
                {t('staff.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onAdd} noValidate>
        <div className="flex flex-wrap items-end gap-2">
          <Field label={t('staff.field')} id="staff-user" name="user" wrapperClassName="min-w-0 flex-1 basis-56" limit={EMAIL_MAX} autoComplete="off" />
          <button type="submit" className="btn-primary shrink-0" disabled={busy !== null || full}>
            {busy === 'add' ? t('staff.adding') : t('staff.add')}
          </button>
        </div>
        {full && <p className="mt-2 text-sm text-muted">{t('staff.full', { max: MAX_TOURNAMENT_STAFF })}</p>}
      </form>
    </section>
  );
}
