import { useEffect, useState, type ReactNode } from 'react';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, HTTPError } from '../../lib/api/client.ts';
import {
  addAchievement,
  addStatField,
  deleteAchievement,
  deleteStatField,
  getStatsConfig,
  setupGame,
  type ManagedGame,
  type StatsConfig,
} from '../../lib/api/game-management.ts';
import { conditionVariables, type AchievementRarity } from '../../lib/domain/stat-fields.ts';
import { t } from '../../lib/i18n/index.ts';
import { translateAchievement, translateStatField } from '../../lib/i18n/stat-texts.ts';
import { api } from '../../lib/stores/api.ts';
import { announceGamesChanged } from '../../lib/stores/games-changed.ts';
import { AchievementForm, categoryLabel, fieldTypeLabel, rarityLabel, SetupDialog, StatFieldForm, templateLabel } from './GameStatsForms.tsx';

interface Props {
  games: ManagedGame[] | null;
  selected: string;
  onSelect: (gameId: string) => void;
  /** After a change to the games' list (a game set up): the panel fetches it again. */
  onChanged: () => void;
}

type Loaded = { state: 'idle' } | { state: 'loading' } | { state: 'missing' } | { state: 'error'; message: string } | { state: 'ready'; config: StatsConfig };
type Place = 'top' | 'setup' | 'fieldList' | 'field' | 'achievementList' | 'achievement';
type Message = { place: Place; tone: NoticeTone; text: string };

const rarityTones: Record<AchievementRarity, string> = {
  common: 'border-line text-muted',
  rare: 'border-primary text-primary',
  epic: 'border-warning text-warning',
  legendary: 'border-accent text-accent',
};

/**
 * The «Конфігурація» tab (SPEC §2 Game statistics admin): pick a game; without a config, a
 * message and a button opening the prefilled setup; with one, its stat fields and achievements
 * with delete buttons (after a confirmation) and the forms that add them.
 */
export function GameStatsConfig({ games, selected, onSelect, onChanged }: Props) {
  // What was fetched, for which game: a change of game shows «loading» until its answer comes,
  // while a refetch after a change keeps the current lists on screen.
  const [result, setResult] = useState<{ gameId: string; loaded: Loaded } | null>(null);
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const [setupOpen, setSetupOpen] = useState(false);
  const game = games?.find((g) => g._id === selected);
  // The games list says which games have a config: an unconfigured one is not asked for (the API's 404).
  const configured = game?.hasStatsConfig;
  const loaded: Loaded = !selected
    ? { state: 'idle' }
    : configured === false
      ? { state: 'missing' }
      : result?.gameId === selected
        ? result.loaded
        : { state: 'loading' };

  useEffect(() => {
    if (!selected || !configured) return;
    let live = true;
    getStatsConfig(api, selected)
      .then((config) => live && setResult({ gameId: selected, loaded: { state: 'ready', config } }))
      .catch((error: unknown) => {
        if (!live) return;
        const missing = error instanceof HTTPError && error.response.status === 404;
        setResult({
          gameId: selected,
          loaded: missing ? { state: 'missing' } : { state: 'error', message: t('manage.error', { message: errorMessage(error, t('gameManagement.loadError')) }) },
        });
      });
    return () => {
      live = false;
    };
  }, [selected, configured, version]);

  function select(gameId: string) {
    setMessage(null);
    setSetupOpen(false);
    onSelect(gameId);
  }

  /**
   * Runs one change; shows ✅ with the server's message or ❌ with its refusal next to where it
   * happened (`donePlace` when success is shown elsewhere, as after the setup dialog closes).
   */
  async function run(place: Place, task: () => Promise<{ message: string }>, fallback: string, donePlace: Place = place): Promise<boolean> {
    setBusy(true);
    setMessage(null);
    try {
      const done = await task();
      setMessage({ place: donePlace, tone: 'success', text: t('manage.success', { message: done.message }) });
      setVersion((v) => v + 1);
      return true;
    } catch (error) {
      setMessage({ place, tone: 'error', text: t('manage.error', { message: errorMessage(error, fallback) }) });
      return false;
    } finally {
      setBusy(false);
    }
  }

  const invalid = (place: Place) => (text: string) => setMessage({ place, tone: 'error', text: t('manage.error', { message: text }) });
  const notice = (place: Place) => (message?.place === place ? <Notice tone={message.tone}>{message.text}</Notice> : null);

  return (
    <>
      <label htmlFor="game-stats-game" className="flex flex-col gap-1 text-sm font-medium sm:max-w-sm">
        {t('gameManagement.chooseGame')}
        <select id="game-stats-game" className="field" value={selected} onChange={(e) => select(e.target.value)} disabled={games === null}>
          <option value="">{t('gameManagement.chooseGamePlaceholder')}</option>
          {(games ?? []).map((g) => (
            <option key={g._id} value={g._id}>
              {g.hasStatsConfig ? `✓ ${g.name}` : g.name}
            </option>
          ))}
        </select>
      </label>
      {notice('top')}

      {loaded.state === 'idle' && <p className="text-sm text-muted">{games?.length === 0 ? t('gameManagement.noGames') : t('gameManagement.pickGame')}</p>}
      {loaded.state === 'loading' && <p className="text-sm text-muted">{t('manage.loading')}</p>}
      {loaded.state === 'error' && <Notice tone="error">{loaded.message}</Notice>}

      {loaded.state === 'missing' && game && (
        <div className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-line p-4">
          <p className="font-medium">{t('gameManagement.notConfigured')}</p>
          <button type="button" className="btn-primary" onClick={() => setSetupOpen(true)}>
            {t('gameManagement.openSetup')}
          </button>
          <SetupDialog
            open={setupOpen}
            name={game.name}
            image={game.image ?? ''}
            busy={busy}
            notice={notice('setup')}
            onClose={() => setSetupOpen(false)}
            onInvalid={invalid('setup')}
            onSubmit={async (body) => {
              const saved = await run('setup', () => setupGame(api, body), t('gameManagement.saveError'), 'top');
              if (saved) {
                setSetupOpen(false);
                onChanged();
                announceGamesChanged();
              }
              return saved;
            }}
          />
        </div>
      )}

      {loaded.state === 'ready' && (
        <ConfigView
          config={loaded.config}
          busy={busy}
          notice={notice}
          onDeleteField={(fieldName, displayName) => {
            if (window.confirm(t('gameManagement.confirmDeleteField', { name: displayName }))) {
              void run('fieldList', () => deleteStatField(api, loaded.config.gameId, fieldName), t('gameManagement.deleteError'));
            }
          }}
          onDeleteAchievement={(id, name) => {
            if (window.confirm(t('gameManagement.confirmDeleteAchievement', { name }))) {
              void run('achievementList', () => deleteAchievement(api, loaded.config.gameId, id), t('gameManagement.deleteError'));
            }
          }}
          fieldForm={
            <StatFieldForm busy={busy} onInvalid={invalid('field')} onSubmit={(body) => run('field', () => addStatField(api, loaded.config.gameId, body), t('gameManagement.saveError'))} />
          }
          achievementForm={
            <AchievementForm
              busy={busy}
              variables={conditionVariables(loaded.config.statsFields.map((f) => f.fieldName))}
              onInvalid={invalid('achievement')}
              onSubmit={(body) => run('achievement', () => addAchievement(api, loaded.config.gameId, body), t('gameManagement.saveError'))}
            />
          }
        />
      )}
    </>
  );
}

function ConfigView({
  config,
  busy,
  notice,
  onDeleteField,
  onDeleteAchievement,
  fieldForm,
  achievementForm,
}: {
  config: StatsConfig;
  busy: boolean;
  notice: (place: Place) => ReactNode;
  onDeleteField: (fieldName: string, displayName: string) => void;
  onDeleteAchievement: (id: string, name: string) => void;
  fieldForm: ReactNode;
  achievementForm: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-muted">{t('gameManagement.templateIs', { template: templateLabel(config.template) })}</p>

      <section aria-labelledby="game-stats-fields-title" className="flex flex-col gap-3">
        <h3 id="game-stats-fields-title" className="text-lg font-semibold">
          {t('gameManagement.fieldsTitle', { count: config.statsFields.length })}
        </h3>
        {config.statsFields.length === 0 ? (
          <p className="text-sm text-muted">{t('gameManagement.noFields')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-line rounded-lg border border-line" aria-labelledby="game-stats-fields-title">
            {config.statsFields.map((stored) => translateStatField(stored)).map((field) => (
              <li key={field.fieldName} className="grid grid-cols-[1.5rem_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-3 py-2">
                <span aria-hidden="true" className="text-center text-lg leading-6">
                  {field.icon}
                </span>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-medium">{field.displayName}</span>
                  <code className="rounded bg-surface-2 px-1.5 text-xs">{field.fieldName}</code>
                  {field.isMainStat && <span className="rounded-full border border-accent px-2 py-0.5 text-xs font-semibold text-accent">{t('gameManagement.mainStat')}</span>}
                </div>
                <button
                  type="button"
                  className="btn-ghost px-3 py-1 text-danger"
                  disabled={busy}
                  aria-label={t('gameManagement.deleteFieldLabel', { name: field.displayName })}
                  onClick={() => onDeleteField(field.fieldName, field.displayName)}
                >
                  {t('manage.delete')}
                </button>
                <p className="col-span-2 col-start-2 text-xs text-muted">
                  {fieldTypeLabel(field.fieldType)} · {categoryLabel(field.category)}
                  {field.description && ` · ${field.description}`}
                </p>
              </li>
            ))}
          </ul>
        )}
        {notice('fieldList')}
        {fieldForm}
        {notice('field')}
      </section>

      <section aria-labelledby="game-stats-achievements-title" className="flex flex-col gap-3">
        <h3 id="game-stats-achievements-title" className="text-lg font-semibold">
          {t('gameManagement.achievementsTitle', { count: config.gameAchievements.length })}
        </h3>
        {config.gameAchievements.length === 0 ? (
          <p className="text-sm text-muted">{t('gameManagement.noAchievements')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-line rounded-lg border border-line" aria-labelledby="game-stats-achievements-title">
            {config.gameAchievements.map((stored) => translateAchievement(stored)).map((achievement) => (
              <li key={achievement._id} className="grid grid-cols-[1.5rem_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-3 py-2">
                <span aria-hidden="true" className="text-center text-lg leading-6">
                  {achievement.icon}
                </span>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-medium">{achievement.name}</span>
                  <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${rarityTones[achievement.rarity]}`}>{rarityLabel(achievement.rarity)}</span>
                </div>
                <button
                  type="button"
                  className="btn-ghost px-3 py-1 text-danger"
                  disabled={busy}
                  aria-label={t('gameManagement.deleteAchievementLabel', { name: achievement.name })}
                  onClick={() => onDeleteAchievement(achievement._id, achievement.name)}
                >
                  {t('manage.delete')}
                </button>
                <div className="col-span-2 col-start-2 flex flex-col items-start gap-1">
                  <p className="text-sm">{achievement.description}</p>
                  <code className="rounded bg-surface-2 px-1.5 text-xs wrap-break-word">{achievement.condition}</code>
                </div>
              </li>
            ))}
          </ul>
        )}
        {notice('achievementList')}
        {achievementForm}
        {notice('achievement')}
      </section>
    </div>
  );
}
