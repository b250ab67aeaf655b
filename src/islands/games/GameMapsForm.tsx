import { useEffect, useState, type SubmitEvent } from 'react';
import { Field, TextAreaField } from '../../components/Field.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { getGameMaps, saveGameMaps, type Game } from '../../lib/api/games.ts';
import { DEFAULT_MAP_POOLS, knownPoolOf, SIDE_NAME_MAX } from '../../lib/domain/map-pool.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

interface Props {
  game: Game;
  /** The panel's notice line. */
  say: (message: { tone: 'success' | 'error'; text: string }) => void;
}

/**
 * A game's map pool for the veto (issue 58): the maps, one a line, and its two starting sides.
 * For CS2 and Valorant the form offers their current competitive pools to start from.
 */
export function GameMapsForm({ game, say }: Props) {
  const [maps, setMaps] = useState<string | null>(null);
  const [sides, setSides] = useState<[string, string]>(['', '']);
  const [busy, setBusy] = useState(false);
  const known = knownPoolOf(game.name);

  useEffect(() => {
    let live = true;
    getGameMaps(api, game._id)
      .then((pool) => {
        if (!live) return;
        setMaps(pool.maps.join('\n'));
        setSides([pool.sides[0] ?? '', pool.sides[1] ?? '']);
      })
      .catch(() => live && setMaps(''));
    return () => {
      live = false;
    };
  }, [game._id]);

  async function save(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const list = (maps ?? '')
      .split('\n')
      .map((m) => m.trim())
      .filter(Boolean);
    setBusy(true);
    try {
      const answer = await saveGameMaps(api, game._id, { maps: list, sides: list.length > 0 ? sides.map((s) => s.trim()) : [] });
      say({ tone: 'success', text: answer.message });
    } catch (error) {
      say({ tone: 'error', text: t('manage.error', { message: errorMessage(error, t('maps.saveError')) }) });
    } finally {
      setBusy(false);
    }
  }

  if (maps === null) return <p className="text-sm text-muted">{t('manage.loading')}</p>;
  return (
    <form onSubmit={(e) => void save(e)} className="mt-3 grid gap-3 md:grid-cols-2" aria-label={t('maps.formLabel', { name: game.name })}>
      <TextAreaField
        label={t('maps.list')}
        id={`game-maps-${game._id}`}
        value={maps}
        onChange={(e) => setMaps(e.target.value)}
        rows={7}
        wrapperClassName="md:row-span-2"
        aria-describedby={`game-maps-hint-${game._id}`}
      />
      <Field
        label={t('maps.side', { n: 1 })}
        id={`game-side-a-${game._id}`}
        value={sides[0]}
        onChange={(e) => setSides([e.target.value, sides[1]])}
        limit={SIDE_NAME_MAX}
      />
      <Field
        label={t('maps.side', { n: 2 })}
        id={`game-side-b-${game._id}`}
        value={sides[1]}
        onChange={(e) => setSides([sides[0], e.target.value])}
        limit={SIDE_NAME_MAX}
      />
      <p id={`game-maps-hint-${game._id}`} className="text-xs text-muted md:col-span-2">
        {t('maps.hint')}
      </p>
      <div className="flex flex-wrap gap-2 md:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {t('maps.save')}
        </button>
        {known && (
          <button
            type="button"
            className="btn-ghost"
            onClick={() => {
              setMaps(DEFAULT_MAP_POOLS[known].maps.join('\n'));
              setSides([...DEFAULT_MAP_POOLS[known].sides]);
            }}
          >
            {t('maps.fillDefault')}
          </button>
        )}
      </div>
    </form>
  );
}
