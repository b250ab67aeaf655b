import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { EMAIL_MAX, PASSWORD_MAX, USERNAME_MAX } from '../../lib/api/limits.ts';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { changePassword, updateProfile, type Cabinet } from '../../lib/api/cabinet.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

interface Props {
  open: boolean;
  cabinet: Cabinet;
  onClose: () => void;
  onSaved: (cabinet: Cabinet, message: string) => void;
}

/** The edit-profile modal: nickname, email, and a password change tried only when both passwords are given. */
export function ProfileEditor({ open, cabinet, onClose, onSaved }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const email = String(form.get('email') ?? '').trim();
    const oldPassword = String(form.get('oldPassword') ?? '');
    const newPassword = String(form.get('newPassword') ?? '');
    const profileChanged = username !== cabinet.username || email.toLowerCase() !== cabinet.email.toLowerCase();
    const passwordGiven = Boolean(oldPassword || newPassword);
    setError('');
    if (passwordGiven && !(oldPassword && newPassword)) return setError(t('cabinet.enterPasswords'));
    if (!profileChanged && !passwordGiven) return setError(t('cabinet.nothingToChange'));

    setBusy(true);
    try {
      let next = cabinet;
      const messages: string[] = [];
      if (profileChanged) {
        const result = await updateProfile(api, {
          ...(username !== cabinet.username ? { username } : {}),
          ...(email.toLowerCase() !== cabinet.email.toLowerCase() ? { email } : {}),
        }).catch((caught: unknown) => {
          throw new Error(errorMessage(caught, t('cabinet.profileError')));
        });
        next = result.user;
        messages.push(result.message);
      }
      if (passwordGiven) {
        const result = await changePassword(api, { oldPassword, newPassword }).catch((caught: unknown) => {
          throw new Error(errorMessage(caught, t('cabinet.passwordError')));
        });
        messages.push(result.message);
      }
      onSaved(next, messages.join(' '));
      onClose();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title={t('cabinet.editProfile')} onClose={onClose}>
      {open && (
        <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
          <Field label={t('cabinet.nickname')} id="profile-username" name="username" defaultValue={cabinet.username} required minLength={3} limit={USERNAME_MAX} autoComplete="username" />
          <Field label={t('cabinet.email')} id="profile-email" name="email" type="email" defaultValue={cabinet.email} required limit={EMAIL_MAX} autoComplete="email" />
          <fieldset className="flex flex-col gap-3 rounded-lg border border-line p-3">
            <legend className="px-1 text-sm font-semibold">{t('cabinet.passwordTitle')}</legend>
            <Field label={t('cabinet.oldPassword')} id="profile-old-password" name="oldPassword" type="password" autoComplete="current-password" limit={PASSWORD_MAX} />
            <Field label={t('cabinet.newPassword')} id="profile-new-password" name="newPassword" type="password" autoComplete="new-password" minLength={8} limit={PASSWORD_MAX} />
          </fieldset>
          {error && <Notice tone="error">{error}</Notice>}
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-ghost" onClick={onClose}>
              {t('cabinet.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? t('cabinet.saving') : t('cabinet.save')}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
