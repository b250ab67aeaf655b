import { useState } from 'react';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { setupPopularGames, type ManagedGame } from '../../lib/api/game-management.ts';
import { showDefaultImage } from '../../components/fallback-image.ts';
import { gameImage } from '../../lib/domain/game-image.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { announceGamesChanged } from '../../lib/stores/games-changed.ts';

interface Props {
  games: ManagedGame[] | null;
  /** After a change: the panel fetches the games again. */
  onChanged: () => void;
  /** Opens the «Конфігурація» tab on this game. */
  onOpen: (gameId: string) => void;
}

/** The «Ігри» tab: every game with whether its statistics are configured, and «Налаштувати популярні ігри». */
export function GameStatsGames({ games, onChanged, onOpen }: Props) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: NoticeTone; text: string } | null>(null);

  async function setupPopular() {
    setBusy(true);
    setMessage(null);
    try {
      const result = await setupPopularGames(api);
      setMessage({ tone: 'success', text: t('manage.success', { message: result.message }) });
      if (result.configured.length > 0) {
        onChanged();
        announceGamesChanged();
      }
    } catch (error) {
      setMessage({ tone: 'error', text: t('manage.error', { message: errorMessage(error, t('gameManagement.saveError')) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <button type="button" className="btn-primary shrink-0" disabled={busy} onClick={() => void setupPopular()} aria-describedby="game-stats-popular-hint">
          {busy ? t('manage.busy') : t('gameManagement.setupPopular')}
        </button>
        <p id="game-stats-popular-hint" className="text-sm text-muted">
          {t('gameManagement.setupPopularHint')}
        </p>
      </div>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {games === null ? (
        <p className="text-sm text-muted">{t('manage.loading')}</p>
      ) : games.length === 0 ? (
        <p className="text-sm text-muted">{t('gameManagement.noGames')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line" aria-label={t('gameManagement.tabGames')}>
          {games.map((game) => (
            <li key={game._id} className="grid grid-cols-[4rem_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 py-2 sm:flex">
              <img src={gameImage(game.image)} onError={showDefaultImage} alt="" width="64" height="36" className="row-span-2 h-9 w-16 shrink-0 rounded bg-surface-2 object-cover" />
              <span className="min-w-0 truncate font-medium">{game.name}</span>
              <button
                type="button"
                className="btn-ghost col-start-3 row-start-1 px-3 py-1 sm:order-last sm:ml-auto sm:shrink-0"
                aria-label={t('gameManagement.openConfigFor', { name: game.name })}
                onClick={() => onOpen(game._id)}
              >
                {t('gameManagement.openConfig')}
              </button>
              <span
                className={`col-span-2 col-start-2 justify-self-start rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap sm:shrink-0 ${game.hasStatsConfig ? 'border-success text-success' : 'border-line text-muted'}`}
              >
                {game.hasStatsConfig ? `✓ ${t('gameManagement.configured')}` : t('gameManagement.notConfiguredBadge')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
