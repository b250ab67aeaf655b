import { useEffect, useState, type KeyboardEvent } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { listManagedGames, type ManagedGame } from '../../lib/api/game-management.ts';
import { t } from '../../lib/i18n/index.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { api } from '../../lib/stores/api.ts';
import { $gamesVersion } from '../../lib/stores/games-changed.ts';
import { GameStatsConfig } from './GameStatsConfig.tsx';
import { GameStatsGames } from './GameStatsGames.tsx';

type Tab = 'games' | 'config';
const TABS: { id: Tab; label: 'gameManagement.tabGames' | 'gameManagement.tabConfig' }[] = [
  { id: 'games', label: 'gameManagement.tabGames' },
  { id: 'config', label: 'gameManagement.tabConfig' },
];
const tabId = (tab: Tab) => `game-stats-tab-${tab}`;
const panelId = (tab: Tab) => `game-stats-panel-${tab}`;

/**
 * Admin: game-and-stats management (SPEC §2) with the tabs «Ігри» (which games have statistics,
 * setting up the popular ones) and «Конфігурація» (one game's stat fields and achievements).
 */
export default function GameStatsPanel() {
  const [tab, setTab] = useState<Tab>('games');
  const [games, setGames] = useState<ManagedGame[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [selected, setSelected] = useState('');
  const [version, setVersion] = useState(0);
  // The games panel on the same page adds, renames and deletes games.
  const gamesVersion = useHydratedStore($gamesVersion, 0);

  useEffect(() => {
    let live = true;
    listManagedGames(api)
      .then((list) => {
        if (!live) return;
        setGames(Array.isArray(list) ? list : []);
        setLoadError(null);
      })
      .catch((error: unknown) => {
        if (!live) return;
        setGames([]);
        setLoadError(t('manage.error', { message: errorMessage(error, t('games.loadError')) }));
      });
    return () => {
      live = false;
    };
  }, [version, gamesVersion]);

  const reload = () => setVersion((v) => v + 1);

  function choose(next: Tab, focus = false) {
    setTab(next);
    if (focus) document.getElementById(tabId(next))?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.findIndex((x) => x.id === tab);
    const next =
      event.key === 'ArrowRight' ? TABS[(index + 1) % TABS.length] : event.key === 'ArrowLeft' ? TABS[(index - 1 + TABS.length) % TABS.length] : event.key === 'Home' ? TABS[0] : event.key === 'End' ? TABS[TABS.length - 1] : undefined;
    if (!next) return;
    event.preventDefault();
    choose(next.id, true);
  }

  function openConfig(gameId: string) {
    setSelected(gameId);
    choose('config', true);
  }

  return (
    <section aria-labelledby="game-stats-title" className="card flex flex-col gap-4">
      <h2 id="game-stats-title" className="text-xl font-bold">
        {t('gameManagement.title')}
      </h2>
      <div role="tablist" aria-label={t('gameManagement.tabs')} className="grid grid-cols-2 gap-1 rounded-lg bg-surface-2 p-1 sm:max-w-sm" onKeyDown={onKeyDown}>
        {TABS.map((item) => (
          <button
            key={item.id}
            id={tabId(item.id)}
            type="button"
            role="tab"
            aria-selected={tab === item.id}
            aria-controls={panelId(item.id)}
            tabIndex={tab === item.id ? 0 : -1}
            className={`btn ${tab === item.id ? 'bg-primary text-primary-fg' : 'text-fg'}`}
            onClick={() => choose(item.id)}
          >
            {t(item.label)}
          </button>
        ))}
      </div>
      {loadError && <Notice tone="error">{loadError}</Notice>}
      <div id={panelId(tab)} role="tabpanel" aria-labelledby={tabId(tab)} className="flex flex-col gap-4">
        {tab === 'games' ? (
          <GameStatsGames games={games} onChanged={reload} onOpen={openConfig} />
        ) : (
          <GameStatsConfig games={games} selected={selected} onSelect={setSelected} onChanged={reload} />
        )}
      </div>
    </section>
  );
}
