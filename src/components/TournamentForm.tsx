import { useState, type SubmitEvent } from 'react';
import { Field, TextAreaField } from './Field.tsx';
import { IMAGE_ADDRESS_MAX, TOURNAMENT_DESCRIPTION_MAX, TOURNAMENT_TITLE_MAX } from '../lib/api/limits.ts';
import { type Game } from '../lib/api/games.ts';
import { type Tournament, type TournamentInput } from '../lib/api/tournaments.ts';
import { fromLocalInputValue, toLocalInputValue } from '../lib/domain/tournament-dates.ts';
import { steamGame } from '../lib/domain/linked-accounts.ts';
import { normalizeStatus, TOURNAMENT_STATUSES } from '../lib/domain/tournament-status.ts';
import {
  CHECK_IN_CLOSES_BEFORE_MINUTES,
  CHECK_IN_OPENS_BEFORE_MINUTES,
  DEFAULT_CONFIRMATION_MINUTES,
  LOBBY_HOSTS,
  MAX_CONFIRMATION_MINUTES,
  MAX_MATCH_CHECK_IN_MINUTES,
} from '../lib/domain/match-day.ts';
import { MAX_PARTICIPANTS, MIN_PARTICIPANTS } from '../lib/domain/registration.ts';
import { OFFERED_TIME_ZONES } from '../lib/domain/time-zone.ts';
import { VETO_STARTERS } from '../lib/domain/veto.ts';
import { SITE_TIME_ZONE, zoneName } from '../lib/i18n/format.ts';
import { t } from '../lib/i18n/index.ts';
import { zoneMark } from '../lib/i18n/zone-mark.ts';

interface Props {
  games: Game[];
  /** The tournament being edited; a blank form creates one. */
  tournament?: Tournament;
  /** The game a new tournament starts with (the panel's filter). */
  defaultGame?: string;
  busy: boolean;
  /** Saves; resolves true on success (a new-tournament form is then cleared). */
  onSubmit: (body: TournamentInput) => Promise<boolean>;
  /** Reports a form that is not filled in enough to send. */
  onInvalid: (message: string) => void;
  onCancel?: () => void;
}

/**
 * The tournament create and edit form: title, date and time, game, status (on edit only: a new
 * tournament starts pending, SPEC §3), solo or team, its own time zone (issue 57), picture,
 * description; the cap, the registration and check-in windows and the confirmation time (issue 22,
 * empty means none or the default). Title, date and game are required (SPEC §5). Its times are
 * the wall clock of the chosen zone, Kyiv's when each reader sees their own.
 */
export function TournamentForm({ games, tournament, defaultGame = '', busy, onSubmit, onInvalid, onCancel }: Props) {
  const prefix = tournament ? `edit-${tournament._id}` : 'new-tournament';
  const [game, setGame] = useState(tournament?.game ?? defaultGame);
  /** The tournament's own zone, '' for each reader's own. */
  const [timeZone, setTimeZone] = useState(tournament?.timeZone ?? '');
  const inputZone = timeZone || SITE_TIME_ZONE;
  const zone = zoneMark(inputZone);
  const toInput = (iso: string | null | undefined) => (iso ? toLocalInputValue(iso, inputZone) : '');
  const steamAllowed = steamGame(games.find((g) => g._id === game)?.name ?? '');

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const title = text('title');
    const date = fromLocalInputValue(text('date'), inputZone);
    if (!game) return onInvalid(tournament ? t('manage.fillAll') : t('manage.chooseGameFirst'));
    if (!title || !date) return onInvalid(t('manage.fillAll'));
    const moment = (name: string) => (text(name) ? fromLocalInputValue(text(name), inputZone) : null);
    const whole = (name: string) => (text(name) ? Number(text(name)) : null);
    // Its own map pool (issue 58), a map a line; none: its game's.
    const ownMaps = text('maps')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    void onSubmit({
      maxParticipants: whole('maxParticipants'),
      registrationOpensAt: moment('registrationOpensAt'),
      registrationClosesAt: moment('registrationClosesAt'),
      checkInEnabled: data.get('checkInEnabled') === 'on',
      checkInOpensAt: moment('checkInOpensAt'),
      checkInClosesAt: moment('checkInClosesAt'),
      confirmationMinutes: whole('confirmationMinutes') ?? DEFAULT_CONFIRMATION_MINUTES,
      timeZone: timeZone || null,
      vetoStarter: data.get('vetoStarter') === 'coinToss' ? 'coinToss' : 'higherSeed',
      maps: ownMaps.length > 0 ? ownMaps : null,
      matchCheckInMinutes: whole('matchCheckInMinutes'),
      lobbyHost: data.get('lobbyHost') === 'higherSeed' ? 'higherSeed' : 'organiser',
      title,
      date,
      game,
      // A new tournament starts pending (the server's default); only an edit changes the status.
      ...(tournament ? { status: normalizeStatus(text('status')) ?? 'pending' } : {}),
      soloOnly: data.get('soloOnly') === 'on',
      // Only CS2 and Dota 2 may ask for Steam; another game's save turns it off.
      requireSteam: steamAllowed && data.get('requireSteam') === 'on',
      image: text('image'),
      description: text('description'),
    }).then((saved) => {
      if (saved && !tournament) form.reset();
    });
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-3 md:grid-cols-2" aria-label={tournament ? t('manage.editTournament', { title: tournament.title }) : t('manage.newTournament')}>
      <Field label={t('manage.tournamentTitle')} id={`${prefix}-title`} name="title" defaultValue={tournament?.title} limit={TOURNAMENT_TITLE_MAX} required />
      <Field
        label={t('manage.tournamentDate', { zone })}
        id={`${prefix}-date`}
        name="date"
        type="datetime-local"
        defaultValue={toInput(tournament?.date)}
        required
      />
      <label htmlFor={`${prefix}-zone`} className="flex flex-col gap-1 text-sm font-medium">
        {t('manage.timeZone')}
        <select id={`${prefix}-zone`} className="field" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} aria-describedby={`${prefix}-zone-hint`}>
          <option value="">{t('manage.timeZoneReaders')}</option>
          {[...new Set([...OFFERED_TIME_ZONES, ...(tournament?.timeZone ? [tournament.timeZone] : [])])].map((zone) => (
            <option key={zone} value={zone}>
              {zone} — {zoneName(zone)}
            </option>
          ))}
        </select>
        <span id={`${prefix}-zone-hint`} className="text-xs font-normal text-muted">
          {t('manage.timeZoneHint')}
        </span>
      </label>
      <label htmlFor={`${prefix}-veto-starter`} className="flex flex-col gap-1 text-sm font-medium">
        {t('manage.vetoStarter')}
        <select id={`${prefix}-veto-starter`} name="vetoStarter" className="field" defaultValue={tournament?.vetoStarter ?? 'higherSeed'}>
          {VETO_STARTERS.map((starter) => (
            <option key={starter} value={starter}>
              {t(`manage.vetoStarter.${starter}`)}
            </option>
          ))}
        </select>
      </label>
      <TextAreaField
        label={t('manage.maps')}
        id={`${prefix}-maps`}
        name="maps"
        rows={3}
        wrapperClassName="text-sm font-medium"
        defaultValue={tournament?.maps?.join('\n') ?? ''}
        aria-describedby={`${prefix}-maps-hint`}
      />
      <p id={`${prefix}-maps-hint`} className="self-end text-xs text-muted">
        {t('manage.mapsHint')}
      </p>
      <label htmlFor={`${prefix}-game`} className="flex flex-col gap-1 text-sm font-medium">
        {t('field.game')}
        <select id={`${prefix}-game`} className="field" value={game} onChange={(e) => setGame(e.target.value)} required>
          <option value="">{t('manage.chooseGame')}</option>
          {games.map((g) => (
            <option key={g._id} value={g._id}>
              {g.name}
            </option>
          ))}
        </select>
      </label>
      {tournament ? (
        <label htmlFor={`${prefix}-status`} className="flex flex-col gap-1 text-sm font-medium">
          {t('manage.tournamentStatus')}
          <select id={`${prefix}-status`} name="status" className="field" defaultValue={normalizeStatus(tournament.status) ?? 'pending'}>
            {TOURNAMENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`status.${status}`)}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="self-end py-2 text-sm text-muted">{t('manage.newTournamentStatus')}</p>
      )}
      <Field label={t('manage.tournamentImage')} id={`${prefix}-image`} name="image" defaultValue={tournament?.image ?? ''} limit={IMAGE_ADDRESS_MAX} placeholder="/games/cs2.jpg" />
      <label htmlFor={`${prefix}-solo`} className="flex items-center gap-2 self-end py-2 text-sm font-medium">
        <input id={`${prefix}-solo`} name="soloOnly" type="checkbox" className="size-4 accent-primary" defaultChecked={tournament?.soloOnly ?? false} />
        {t('manage.soloOnly')}
      </label>
      {steamAllowed ? (
        <label htmlFor={`${prefix}-require-steam`} className="flex items-start gap-2 py-2 text-sm font-medium md:col-span-2">
          <input id={`${prefix}-require-steam`} name="requireSteam" type="checkbox" className="mt-0.5 size-4 accent-primary" defaultChecked={tournament?.requireSteam ?? false} />
          <span>
            {t('linked.requireSteam')}
            <span className="block font-normal text-muted">{t('linked.requireSteamHint')}</span>
          </span>
        </label>
      ) : null}
      <fieldset className="grid gap-3 md:col-span-2 md:grid-cols-2">
        <legend className="mb-1 text-sm font-semibold">{t('manage.registrationSection')}</legend>
        <Field
          label={t('manage.maxParticipants')}
          id={`${prefix}-max`}
          name="maxParticipants"
          type="number"
          min={MIN_PARTICIPANTS}
          max={MAX_PARTICIPANTS}
          step={1}
          defaultValue={tournament?.maxParticipants ?? ''}
        />
        <Field
          label={t('manage.confirmationMinutes')}
          id={`${prefix}-confirm`}
          name="confirmationMinutes"
          type="number"
          min={1}
          max={MAX_CONFIRMATION_MINUTES}
          step={1}
          defaultValue={tournament?.confirmationMinutes ?? DEFAULT_CONFIRMATION_MINUTES}
        />
        <Field
          label={t('manage.matchCheckIn')}
          id={`${prefix}-match-check-in`}
          name="matchCheckInMinutes"
          type="number"
          min={1}
          max={MAX_MATCH_CHECK_IN_MINUTES}
          step={1}
          defaultValue={tournament?.matchCheckInMinutes ?? ''}
          aria-describedby={`${prefix}-match-check-in-hint`}
        />
        <p id={`${prefix}-match-check-in-hint`} className="text-xs text-muted md:col-span-2">
          {t('manage.matchCheckInHint')}
        </p>
        <label htmlFor={`${prefix}-lobby-host`} className="flex flex-col gap-1 text-sm font-medium">
          {t('manage.lobbyHost')}
          <select id={`${prefix}-lobby-host`} name="lobbyHost" className="field" defaultValue={tournament?.lobbyHost ?? 'organiser'}>
            {LOBBY_HOSTS.map((host) => (
              <option key={host} value={host}>
                {t(`manage.lobbyHost.${host}`)}
              </option>
            ))}
          </select>
        </label>
        {(['registrationOpensAt', 'registrationClosesAt'] as const).map((name) => (
          <Field
            key={name}
            label={t(`manage.${name}`, { zone })}
            id={`${prefix}-${name}`}
            name={name}
            type="datetime-local"
            defaultValue={toInput(tournament?.[name])}
          />
        ))}
        <label htmlFor={`${prefix}-check-in`} className="flex items-center gap-2 py-2 text-sm font-medium md:col-span-2">
          <input id={`${prefix}-check-in`} name="checkInEnabled" type="checkbox" className="size-4 accent-primary" defaultChecked={tournament?.checkInEnabled ?? false} />
          {t('manage.checkInEnabled')}
        </label>
        <Field
          label={t('manage.checkInOpensAt', { minutes: CHECK_IN_OPENS_BEFORE_MINUTES })}
          id={`${prefix}-check-in-opens`}
          name="checkInOpensAt"
          type="datetime-local"
          defaultValue={toInput(tournament?.checkInOpensAt)}
        />
        <Field
          label={t('manage.checkInClosesAt', { minutes: CHECK_IN_CLOSES_BEFORE_MINUTES })}
          id={`${prefix}-check-in-closes`}
          name="checkInClosesAt"
          type="datetime-local"
          defaultValue={toInput(tournament?.checkInClosesAt)}
        />
      </fieldset>
      <TextAreaField
        label={t('manage.tournamentDescription')}
        id={`${prefix}-description`}
        name="description"
        className="min-h-24"
        wrapperClassName="md:col-span-2"
        defaultValue={tournament?.description ?? ''}
        limit={TOURNAMENT_DESCRIPTION_MAX}
      />
      <div className="flex flex-wrap gap-2 md:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? t('manage.busy') : tournament ? t('manage.save') : t('manage.addTournament')}
        </button>
        {onCancel && (
          <button type="button" className="btn-ghost" onClick={onCancel}>
            {t('manage.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
