import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { listPlayerAchievements, type EarnedAchievement } from '../../lib/api/leaderboards.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { translateAchievement } from '../../lib/i18n/stat-texts.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { api } from '../../lib/stores/api.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';

type Rarity = EarnedAchievement['achievement']['rarity'];
const rarityRing: Record<Rarity, string> = { common: 'border-line', rare: 'border-primary', epic: 'border-warning', legendary: 'border-accent' };
const rarityText: Record<Rarity, string> = { common: 'text-muted', rare: 'text-primary', epic: 'text-warning', legendary: 'text-accent' };

/** The signed-in player's earned achievements in the cabinet: their own and their teams', newest first. */
export default function PlayerAchievements() {
  const user = useHydratedStore($user, null);
  const sessionLoading = useHydratedStore($sessionLoading, true);
  const userId = user?._id;
  const [state, setState] = useState<{ for: string; items: EarnedAchievement[] } | { for: string; error: string } | null>(null);

  useEffect(() => {
    if (!userId) return;
    let live = true;
    listPlayerAchievements(api, userId).then(
      (items) => live && setState({ for: userId, items }),
      (error: unknown) => live && setState({ for: userId, error: errorMessage(error, t('stats.achievementsLoadError')) }),
    );
    return () => {
      live = false;
    };
  }, [userId]);

  // Rendered (as «loading») until the session is known: `client:visible` needs an element to watch.
  if (!userId && !sessionLoading) return null;
  const current = userId && state?.for === userId ? state : null;
  return (
    <section className="card flex flex-col gap-3" aria-labelledby="my-achievements">
      <h2 id="my-achievements" className="text-lg font-bold">
        {t('stats.achievementsTitle')}
      </h2>
      {!current && <p className="text-sm text-muted">{t('stats.achievementsLoading')}</p>}
      {current && 'error' in current && <Notice tone="error">{current.error}</Notice>}
      {current && 'items' in current && current.items.length === 0 && <p className="text-sm text-muted">{t('stats.achievementsEmpty')}</p>}
      {current && 'items' in current && current.items.length > 0 && (
        <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          {current.items.map((earned) => (
            <li key={earned._id} className="flex items-start gap-3 rounded-lg bg-surface-2 p-3">
              <span aria-hidden="true" className={`inline-flex size-10 shrink-0 items-center justify-center rounded-full border-2 bg-bg/40 text-xl ${rarityRing[earned.achievement.rarity]}`}>
                {earned.achievement.icon}
              </span>
              <div className="flex min-w-0 flex-col gap-0.5">
                <p className="flex flex-wrap items-baseline gap-x-2">
                  <span className="font-semibold">{earned.achievement.name}</span>
                  <span className={`text-xs font-semibold ${rarityText[earned.achievement.rarity]}`}>{t(`stats.rarity.${earned.achievement.rarity}`)}</span>
                </p>
                <p className="text-sm">{translateAchievement(earned.achievement).description}</p>
                <p className="text-xs text-muted">
                  {earned.game.name}
                  {earned.team ? ` · ${t('stats.withTeam', { team: earned.team.name })}` : ''} ·{' '}
                  <time dateTime={earned.earnedAt}>{t('stats.earnedOn', { date: formatDateTime(earned.earnedAt) })}</time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
