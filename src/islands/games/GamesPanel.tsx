import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { GAME_NAME_MAX, IMAGE_ADDRESS_MAX } from '../../lib/api/limits.ts';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { createGame, deleteGame, listGames, updateGame, type Game } from '../../lib/api/games.ts';
import { showDefaultImage } from '../../components/fallback-image.ts';
import { gameImage } from '../../lib/domain/game-image.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $gamesVersion, announceGamesChanged } from '../../lib/stores/games-changed.ts';
import { useAdminTask } from '../../lib/hooks/use-admin-task.ts';
import { GameMapsForm } from './GameMapsForm.tsx';

/** Admin: games panel, add, edit and delete (after a confirmation) (SPEC §2 Admin panel). */
export default function GamesPanel() {
  const [games, setGames] = useState<Game[] | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const { busy, message, setMessage, run: runTask } = useAdminTask();

  // Bumped after every change to games, here or in another panel, so the list is fetched again.
  const version = useStore($gamesVersion);

  useEffect(() => {
    let live = true;
    listGames(api)
      .then((list) => live && setGames(Array.isArray(list) ? list : []))
      .catch((error: unknown) => {
        if (!live) return;
        setGames([]);
        setMessage({ tone: 'error', text: t('manage.error', { message: errorMessage(error, t('games.loadError')) }) });
      });
    return () => {
      live = false;
    };
  }, [version, setMessage]);

  const run = (task: () => Promise<{ message: string }>, fallback: string, after?: () => void) =>
    runTask(task, fallback, () => {
      after?.();
      announceGamesChanged();
    });

  function read(form: HTMLFormElement) {
    const data = new FormData(form);
    return { name: String(data.get('name') ?? '').trim(), image: String(data.get('image') ?? '').trim() };
  }

  async function onAdd(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = read(form);
    if (!body.name) return setMessage({ tone: 'error', text: t('manage.error', { message: t('games.nameRequired') }) });
    await run(() => createGame(api, body), t('games.saveError'), () => form.reset());
  }

  async function onSave(event: SubmitEvent<HTMLFormElement>, id: string) {
    event.preventDefault();
    const body = read(event.currentTarget);
    if (!body.name) return setMessage({ tone: 'error', text: t('manage.error', { message: t('games.nameRequired') }) });
    await run(() => updateGame(api, id, body), t('games.saveError'), () => setEditing(null));
  }

  return (
    <section aria-labelledby="games-panel-title" className="card flex flex-col gap-4">
      <h2 id="games-panel-title" className="text-xl font-bold">
        {t('manage.gamesTitle')}
      </h2>
      <form onSubmit={(e) => void onAdd(e)} className="grid gap-3 md:grid-cols-[1fr_1fr_auto] md:items-end" aria-label={t('manage.addGame')}>
        <Field label={t('manage.gameName')} id="new-game-name" name="name" limit={GAME_NAME_MAX} />
        <Field label={t('manage.gameImage')} id="new-game-image" name="image" limit={IMAGE_ADDRESS_MAX} placeholder="/games/cs2.jpg" />
        <button type="submit" className="btn-primary" disabled={busy}>
          {t('manage.addGame')}
        </button>
      </form>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {games === null ? (
        <p className="text-sm text-muted">{t('manage.loading')}</p>
      ) : games.length === 0 ? (
        <p className="text-sm text-muted">{t('games.empty')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {games.map((game) =>
            editing === game._id ? (
              <li key={game._id} className="py-3">
                <form onSubmit={(e) => void onSave(e, game._id)} className="grid gap-3 md:grid-cols-[1fr_1fr_auto_auto] md:items-end" aria-label={t('manage.editGame', { name: game.name })}>
                  <Field label={t('manage.gameName')} id={`game-name-${game._id}`} name="name" defaultValue={game.name} limit={GAME_NAME_MAX} />
                  <Field label={t('manage.gameImage')} id={`game-image-${game._id}`} name="image" defaultValue={game.image ?? ''} limit={IMAGE_ADDRESS_MAX} />
                  <button type="submit" className="btn-primary" disabled={busy}>
                    {t('manage.save')}
                  </button>
                  <button type="button" className="btn-ghost" onClick={() => setEditing(null)}>
                    {t('manage.cancel')}
                  </button>
                </form>
                <GameMapsForm game={game} say={setMessage} />
              </li>
            ) : (
              <li key={game._id} className="flex items-center gap-3 py-2">
                <img src={gameImage(game.image)} onError={showDefaultImage} alt="" width="64" height="36" className="h-9 w-16 shrink-0 rounded bg-surface-2 object-cover" />
                <span className="min-w-0 flex-1 truncate font-medium">{game.name}</span>
                <button type="button" className="btn-ghost px-3 py-1" aria-label={`${t('manage.edit')}: ${game.name}`} onClick={() => setEditing(game._id)}>
                  {t('manage.edit')}
                </button>
                <button
                  type="button"
                  className="btn-ghost px-3 py-1 text-danger"
                  disabled={busy}
                  aria-label={`${t('manage.delete')}: ${game.name}`}
                  onClick={() => {
                    if (window.confirm(t('manage.confirmDeleteGame', { name: game.name }))) void run(() => deleteGame(api, game._id), t('games.deleteError'));
                  }}
                >
                  {t('manage.delete')}
                </button>
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}
