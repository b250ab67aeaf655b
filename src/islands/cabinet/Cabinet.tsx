import { useEffect, useState, type ReactNode } from 'react';
import MatchHistory from '../../components/MatchHistory.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { showDefaultImage } from '../../components/fallback-image.ts';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { getCabinet, uploadAvatar, type Cabinet as CabinetData } from '../../lib/api/cabinet.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { profilePath } from '../../lib/domain/participant.ts';
import { formatDate } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';
import { ProfileEditor } from './ProfileEditor.tsx';

type Status = { tone: NoticeTone; text: string } | null;

/** How long a success or error line stays (SPEC §9: status messages 3000 ms). */
const STATUS_MS = 3000;


/** The signed-in user's cabinet: avatar, profile, team, and the slots below (match history, achievements). */
export default function Cabinet({ children }: { children?: ReactNode }) {
  const user = useHydratedStore($user, null);
  const sessionLoading = useHydratedStore($sessionLoading, true);
  const [cabinet, setCabinet] = useState<CabinetData | null>(null);
  const [loadError, setLoadError] = useState('');
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [editing, setEditing] = useState(false);

  const userId = user?._id;
  useEffect(() => {
    if (!userId) return;
    getCabinet(api).then(setCabinet, (error: unknown) => setLoadError(errorMessage(error, t('cabinet.loadError'))));
  }, [userId]);

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(null), STATUS_MS);
    return () => clearTimeout(timer);
  }, [status]);

  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview.url);
  }, [preview]);

  if (sessionLoading) return <Notice>{t('admin.checking')}</Notice>;
  if (!user) {
    return (
      <div className="flex flex-col items-start gap-3">
        <Notice>{t('cabinet.signInFirst')}</Notice>
        <a href="/login" className="btn-primary">
          {t('nav.signIn')}
        </a>
      </div>
    );
  }
  if (loadError) return <Notice tone="error">{loadError}</Notice>;
  if (!cabinet) return <Notice>{t('admin.checking')}</Notice>;

  function applyUpdate(next: CabinetData) {
    setCabinet(next);
    // The nav shows the same user: keep it in step.
    $user.set({ _id: next._id, username: next.username, email: next.email, avatar: next.avatar, role: next.role, teams: next.teams, team: next.team });
  }

  async function saveAvatar() {
    if (!preview) return;
    setSaving(true);
    try {
      const result = await uploadAvatar(api, preview.file, preview.file.name);
      applyUpdate(result.user);
      setPreview(null);
      setStatus({ tone: 'success', text: result.message });
    } catch (error) {
      setStatus({ tone: 'error', text: errorMessage(error, t('cabinet.avatarError')) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <section className="card flex flex-col gap-4 sm:flex-row sm:items-center" aria-label={t('cabinet.title')}>
        <div className="flex flex-col items-center gap-2">
          {preview ? (
            <img src={preview.url} alt={t('cabinet.changeAvatar')} width={96} height={96} className="size-24 rounded-full object-cover" />
          ) : (
            <UserAvatar user={cabinet} size="lg" showName={false} />
          )}
          <div className="flex flex-wrap justify-center gap-2">
            <label className="btn-ghost cursor-pointer focus-within:outline-2 focus-within:outline-accent">
              {t('cabinet.changeAvatar')}
              <input
                type="file"
                accept="image/png,image/jpeg,image/webp,image/gif"
                className="sr-only"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) setPreview({ file, url: URL.createObjectURL(file) });
                  event.target.value = '';
                }}
              />
            </label>
            {preview && (
              <>
                <button type="button" className="btn-primary" disabled={saving} onClick={saveAvatar}>
                  {saving ? t('cabinet.saving') : t('cabinet.saveAvatar')}
                </button>
                <button type="button" className="btn-ghost" onClick={() => setPreview(null)}>
                  {t('cabinet.cancel')}
                </button>
              </>
            )}
          </div>
          <p className="text-xs text-muted">{t('cabinet.avatarHint')}</p>
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 className="flex flex-wrap items-center gap-2 text-2xl font-bold">
            <span className="truncate">{cabinet.username}</span>
            {cabinet.isCaptain && <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-semibold text-bg">{t('cabinet.captain')}</span>}
          </h2>
          <p className="text-muted">{cabinet.email}</p>
          {cabinet.pendingEmail && <p className="text-sm text-warning">{t('cabinet.pendingEmail', { email: cabinet.pendingEmail })}</p>}
          <p className="text-sm text-muted">{t('cabinet.memberSince', { date: formatDate(cabinet.createdAt) })}</p>
          <a href={profilePath('user', cabinet._id)} className="self-start text-sm">
            {t('profile.ownPage')}
          </a>
          <button type="button" className="btn-ghost mt-2 self-start" onClick={() => setEditing(true)}>
            {t('cabinet.editProfile')}
          </button>
        </div>
      </section>
      {status && <Notice tone={status.tone}>{status.text}</Notice>}

      <section className="card flex flex-col gap-3" aria-labelledby="my-team">
        <h2 id="my-team" className="text-lg font-bold">
          {t('cabinet.myTeam')}
        </h2>
        {cabinet.myTeam ? (
          <a href="/team" className="flex items-center gap-3 text-fg">
            <img
              src={cabinet.myTeam.logoUrl || '/default_game.jpg'}
              alt=""
              width={48}
              height={48}
              className="size-12 rounded-lg object-cover"
              onError={showDefaultImage}
            />
            <span className="flex flex-col">
              <span className="font-semibold">{cabinet.myTeam.name}</span>
              <span className="text-sm text-muted">
                {t('cabinet.members')}: {cabinet.myTeam.membersCount}
                {cabinet.myTeam.captain === cabinet._id ? ` · ${t('cabinet.captain')}` : ''}
              </span>
            </span>
          </a>
        ) : (
          <p className="text-muted">{t('cabinet.noTeam')}</p>
        )}
      </section>

      <div className="card">
        <MatchHistory kind="player" id={cabinet._id} title={t('cabinet.matchHistory')} headingLevel={2} />
      </div>

      {children}

      <ProfileEditor
        open={editing}
        cabinet={cabinet}
        onClose={() => setEditing(false)}
        onSaved={(next, message) => {
          applyUpdate(next);
          setStatus({ tone: 'success', text: message });
        }}
      />
    </div>
  );
}
