import type { AchievementBadge } from '../../lib/api/leaderboards.ts';
import { streakLabel } from '../../lib/domain/leaderboard.ts';
import { t } from '../../lib/i18n/index.ts';
import { translateAchievement } from '../../lib/i18n/stat-texts.ts';

/* The leaderboard table's cells that draw more than a value: achievement badges, a streak (a team's picture is components/TeamLogo). */

const rarityRing: Record<AchievementBadge['rarity'], string> = {
  common: 'border-line',
  rare: 'border-primary',
  epic: 'border-warning',
  legendary: 'border-accent',
};

/** Achievement icons; each shows its name, rarity and description on hover or keyboard focus. */
export function Badges({ items, align, idPrefix }: { items: AchievementBadge[]; align: 'start' | 'end'; idPrefix: string }) {
  if (items.length === 0) return <span className={`block text-muted ${align === 'end' ? 'text-right' : ''}`}>—</span>;
  return (
    <ul className={`flex flex-wrap gap-1 ${align === 'end' ? 'justify-end' : ''}`} aria-label={t('leaderboards.col.achievements')}>
      {items.map((badge) => {
        const tipId = `${idPrefix}-${badge._id}`;
        return (
          <li key={badge._id} className="group relative">
            <span
              tabIndex={0}
              aria-describedby={tipId}
              className={`badge-round ${rarityRing[badge.rarity]}`}
            >
              <span aria-hidden="true">{badge.icon}</span>
              <span className="sr-only">{badge.name}</span>
            </span>
            <span
              role="tooltip"
              id={tipId}
              className={`hover-tip ${align === 'end' ? 'right-0' : 'left-0'}`}
            >
              <span className="block font-semibold">
                {badge.name} · {t(`stats.rarity.${badge.rarity}`)}
              </span>
              <span className="block text-muted">{translateAchievement(badge).description}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

export function Streak({ value }: { value: number }) {
  const text = value > 0 ? t('leaderboards.streak.win', { count: value }) : value < 0 ? t('leaderboards.streak.loss', { count: -value }) : t('leaderboards.streak.none');
  return (
    <>
      <span aria-hidden="true" className={value > 0 ? 'text-warning' : value < 0 ? 'text-primary' : 'text-muted'}>
        {streakLabel(value)}
      </span>
      <span className="sr-only">{text}</span>
    </>
  );
}
