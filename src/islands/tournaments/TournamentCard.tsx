import type { Tournament } from '../../lib/api/tournaments.ts';
import { showDefaultImage } from '../../components/fallback-image.ts';
import { gameImage } from '../../lib/domain/game-image.ts';
import { formatDay } from '../../lib/domain/tournament-dates.ts';
import { registrationRefusal } from '../../lib/domain/registration.ts';
import { isOpenForApplications } from '../../lib/domain/tournament-status.ts';
import type { LiveApplicationStatus } from '../../lib/domain/application-rules.ts';
import { t } from '../../lib/i18n/tournament-list.ts';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { FACT, FACT_SPACED, FACTS, FACTS_ROW } from '../../components/facts.ts';


/**
 * One tournament in the list: picture and title open the detail, so does the apply button (SPEC §2).
 * `priority`: the first card, whose picture is usually the page's largest paint, loads it at once.
 * `showGame`: the card names its game, in a list of several games' tournaments. `applied`: the
 * reader's (or their team's) live application there, which the card says instead of offering another.
 */
export function TournamentCard({
  tournament,
  priority = false,
  showGame = false,
  applied,
}: {
  tournament: Tournament;
  priority?: boolean;
  showGame?: boolean;
  applied?: LiveApplicationStatus | undefined;
}) {
  const href = `/tournaments/${tournament._id}`;
  // Apply only while it takes applications: waiting to start and its registration window open (issue 57).
  const open = !applied && isOpenForApplications(tournament.status) && registrationRefusal(tournament, new Date()) === null;
  const label = t(applied ? `tournaments.applied.${applied}` : open ? 'tournaments.apply' : 'tournaments.details');
  return (
    <li className="card flex flex-col gap-3 overflow-hidden p-0">
      <a href={href} className="block" tabIndex={-1} aria-hidden="true">
        <img
          src={gameImage(tournament.image)}
          data-fallback=""
          onError={showDefaultImage}
          alt=""
          width="640"
          height="360"
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          className="aspect-video w-full bg-surface-2 object-cover"
        />
      </a>
      <div className="flex flex-1 flex-col gap-2 px-4 pb-4">
        <h3 className="text-lg leading-snug font-bold wrap-anywhere">
          <a href={href} className="text-fg">
            {tournament.title}
          </a>
        </h3>
        {tournament.organisation && (
          <p className="text-sm text-muted wrap-anywhere">
            {t('org.hostedBy')}: <a href={`/org/${tournament.organisation.slug}`}>{tournament.organisation.name}</a>
            {tournament.organisation.verified && <span className="ml-1 text-success" title={t('org.verifiedHint')}>✓</span>}
          </p>
        )}
        {/* The facts wrap as the card's width allows, no «·» left at a line's end (components/facts.ts). */}
        <p className={`${FACTS} text-sm text-muted`}>
          <span className={FACTS_ROW}>
            {showGame && <span className={`${FACT} font-semibold text-fg`}>{tournament.gameName}</span>}
            <time dateTime={tournament.date} className={FACT}>
              {/* SPEC §2: a card's date as YYYY-MM-DD. */}
              {formatDay(tournament.date)}
            </time>
            <span className={FACT}>{t(tournament.soloOnly ? 'tournaments.soloLabel' : 'tournaments.teamLabel')}</span>
            <span className={FACT_SPACED}>
              <StatusBadge status={tournament.status} />
            </span>
          </span>
        </p>
        <a
          href={open ? `${href}#apply` : href}
          className={`${open ? 'btn-primary' : 'btn-ghost'} mt-auto self-start`}
          aria-label={`${label}: ${tournament.title}`}
          data-apply-for={tournament._id}
          data-title={tournament.title}
        >
          {applied && <span aria-hidden="true">✓ </span>}
          {label}
        </a>
      </div>
    </li>
  );
}

/** A grey stand-in card while the list loads. */
export function PlaceholderCard() {
  return (
    <li className="card flex animate-pulse flex-col gap-3 overflow-hidden p-0" aria-hidden="true">
      <div className="aspect-video w-full bg-surface-2" />
      <div className="flex flex-col gap-2 px-4 pb-4">
        <div className="h-5 w-3/4 rounded bg-surface-2" />
        <div className="h-4 w-1/2 rounded bg-surface-2" />
        <div className="h-9 w-32 rounded-lg bg-surface-2" />
      </div>
    </li>
  );
}
