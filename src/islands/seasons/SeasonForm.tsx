import { useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import type { Game } from '../../lib/api/games.ts';
import type { Season, SeasonInput } from '../../lib/api/seasons.ts';
import { parsePoints, pointsRefusal, pointsText, POINTS_MAX, POINTS_PLACES_MAX, SEASON_NAME_MAX, SUGGESTED_POINTS } from '../../lib/domain/season.ts';
import { t } from '../../lib/i18n/index.ts';

interface Props {
  /** The season being changed; without one, the form makes a new season of one of `games`. */
  season?: Season;
  games: Game[];
  busy: boolean;
  submitLabel: string;
  onSubmit: (body: Omit<SeasonInput, 'organisation'>) => void;
}

const KINDS = [
  ['auto', 'seasons.manage.kindAuto'],
  ['players', 'seasons.manage.kindPlayers'],
  ['teams', 'seasons.manage.kindTeams'],
] as const;

const kindOf = (soloOnly: boolean | null | undefined) => (soloOnly === true ? 'players' : soloOnly === false ? 'teams' : 'auto');

/**
 * A season's name and points by place (issue 59); its game and kind while it has no tournament. The
 * points are one line of numbers, checked by the domain's rule before sending; the server checks
 * every rule again and answers in the reader's language.
 */
export function SeasonForm({ season, games, busy, submitLabel, onSubmit }: Props) {
  const prefix = season ? `season-${season._id}` : 'season-new';
  const [problem, setProblem] = useState<string | null>(null);
  // Game and kind are what a season's tournaments share: fixed once one has joined.
  const open = !season || season.tournaments.length === 0;

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const points = parsePoints(text('points'));
    const refusal = pointsRefusal(points);
    if (refusal) return setProblem(t(`season.points.${refusal}`, { max: refusal === 'tooMany' ? POINTS_PLACES_MAX : POINTS_MAX }));
    if (!text('name')) return setProblem(t('season.enterName'));
    if (!text('game')) return setProblem(t('seasons.manage.chooseGame'));
    setProblem(null);
    const kind = text('kind');
    onSubmit({
      name: text('name'),
      game: text('game'),
      pointsByPlace: points as number[],
      soloOnly: kind === 'players' ? true : kind === 'teams' ? false : null,
    });
  }

  return (
    <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
      <Field label={t('seasons.manage.name')} id={`${prefix}-name`} name="name" required limit={SEASON_NAME_MAX} defaultValue={season?.name ?? ''} />
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={`${prefix}-game`}>{t('seasons.manage.game')}</label>
          <select id={`${prefix}-game`} name="game" className="field" defaultValue={season?.game._id ?? ''} disabled={!open} required>
            {!season && <option value="">{t('seasons.manage.chooseGame')}</option>}
            {season && !games.some((g) => g._id === season.game._id) && <option value={season.game._id}>{season.game.name}</option>}
            {games.map((game) => (
              <option key={game._id} value={game._id}>
                {game.name}
              </option>
            ))}
          </select>
          {/* A disabled select sends nothing: its value goes along unchanged. */}
          {!open && <input type="hidden" name="game" value={season!.game._id} />}
        </div>
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={`${prefix}-kind`}>{t('seasons.manage.kind')}</label>
          <select id={`${prefix}-kind`} name="kind" className="field" defaultValue={kindOf(season?.soloOnly)} disabled={!open}>
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {t(label)}
              </option>
            ))}
          </select>
          {!open && <input type="hidden" name="kind" value={kindOf(season!.soloOnly)} />}
        </div>
      </div>
      <Field
        label={t('seasons.manage.points')}
        id={`${prefix}-points`}
        name="points"
        required
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        defaultValue={pointsText(season?.pointsByPlace ?? SUGGESTED_POINTS)}
      />
      {problem && <Notice tone="error">{problem}</Notice>}
      <button type="submit" className="btn-primary self-start" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
