import type { AuditEntryView } from '../lib/api/audit-calls.ts';
import type {
  ApplicationSnapshot,
  CheckInCloseSnapshot,
  CheckInSnapshot,
  DisqualifiedSnapshot,
  LobbyGameSnapshot,
  MatchSnapshot,
  ParticipantAddedSnapshot,
  ResultSnapshot,
  StageSnapshot,
  StaffSnapshot,
  VenueSnapshot,
  WinnerSnapshot,
} from '../lib/domain/audit.ts';
import { scoreText } from '../lib/domain/match-report.ts';
import { formatDateTime } from '../lib/i18n/format.ts';
import { currentLocale, plural, t } from '../lib/i18n/index.ts';

/**
 * One line of the audit log (issue 23), in the reader's language: what changed, from its kind and
 * its before → after (the shapes of lib/domain/audit.ts). Who changed it is not part of the line:
 * only organisers see that, beside it. The tournament page, its history page and the admin's log
 * all word an entry here.
 */
export function auditText(entry: Pick<AuditEntryView, 'kind' | 'before' | 'after' | 'subject'>): string {
  const before = entry.before as unknown;
  const after = entry.after as unknown;
  switch (entry.kind) {
    case 'applicationDecided': {
      const was = before as ApplicationSnapshot;
      const now = after as ApplicationSnapshot;
      const applicant = now.applicant || was.applicant;
      // A guest does not learn whose application was never approved: the line names none.
      if (!applicant) {
        if (now.status === 'deleted') return t('history.unnamedApplicationDeleted', { before: statusText(was.status) });
        return t(now.automatic ? 'history.unnamedApplicationMoved' : 'history.unnamedApplicationDecided', { before: statusText(was.status), after: statusText(now.status) });
      }
      if (now.status === 'deleted') return t('history.applicationDeleted', { applicant, before: statusText(was.status) });
      return t(now.automatic ? 'history.applicationMoved' : 'history.applicationDecided', { applicant, before: statusText(was.status), after: statusText(now.status) });
    }
    case 'participantAdded':
      return t('history.participantAdded', { participant: (after as ParticipantAddedSnapshot).participant });
    case 'checkInOverride': {
      const now = after as CheckInSnapshot;
      if (now.status) return t('history.checkInRestored', { participant: now.participant });
      return t(now.checkedIn ? 'history.checkIn' : 'history.checkOut', { participant: now.participant });
    }
    case 'checkInExtended':
      return t('history.checkInExtended', { time: formatDateTime((after as CheckInCloseSnapshot).closesAt, { locale: currentLocale() }) });
    case 'stageCreated':
      return t('history.stageCreated', { ...stageWords(after as StageSnapshot), participants: plural(currentLocale(), 'count.participants', (after as StageSnapshot).participants) });
    case 'stageReset':
      return t('history.stageReset', { ...stageWords(before as StageSnapshot), results: (before as StageSnapshot).results ?? 0 });
    case 'resultEntered':
      return t('history.resultEntered', { ...sides(after as MatchSnapshot), score: resultText(after as MatchSnapshot) });
    case 'disputeResolved':
      return t('history.disputeResolved', { ...sides(after as MatchSnapshot), score: resultText(after as MatchSnapshot) });
    case 'resultCorrected':
      return t('history.resultCorrected', { ...sides(after as MatchSnapshot), before: resultText(before as MatchSnapshot), after: resultText(after as MatchSnapshot) });
    case 'resultReset':
      // A reset that names another match (`subject`) followed that match's change.
      return t(entry.subject ? 'history.resultResetBy' : 'history.resultReset', { ...sides(before as MatchSnapshot), score: resultText(before as MatchSnapshot) });
    case 'forfeit': {
      const match = after as MatchSnapshot;
      const names = sides(match);
      return t('history.forfeit', { ...names, loser: match.result?.forfeit === 'b' ? names.b : names.a });
    }
    case 'disqualified': {
      const now = after as DisqualifiedSnapshot;
      return t('history.disqualified', { participant: now.participant, count: now.forfeits });
    }
    case 'lobbyGameEntered': {
      const now = after as LobbyGameSnapshot;
      return t('history.lobbyGameEntered', { lobby: lobbyName(now), game: now.game, order: podium(now) });
    }
    case 'lobbyGameCorrected': {
      const now = after as LobbyGameSnapshot;
      return t('history.lobbyGameCorrected', { lobby: lobbyName(now), game: now.game, before: podium(before as LobbyGameSnapshot), after: podium(now) });
    }
    case 'winnerSet': {
      const now = after as WinnerSnapshot;
      return t(now.finished ? 'history.winnerSetFinished' : 'history.winnerSet', { winner: now.winner ?? '' });
    }
    case 'staffAdded':
      return t('history.staffAdded', { username: (after as StaffSnapshot).username });
    case 'staffRemoved':
      return t('history.staffRemoved', { username: (before as StaffSnapshot).username });
    case 'venueRequested':
    case 'venueApproved':
    case 'venueRefused':
    case 'venueWithdrawn': {
      const venue = ((after ?? before) as VenueSnapshot | null) ?? { networks: [], note: '', status: '' };
      return t(`history.${entry.kind}`, { note: venue.note, networks: venue.networks.join(', ') });
    }
  }
}

const lobbyName = (game: LobbyGameSnapshot) => (game.final ? t('history.lobbyFinal') : t('history.lobby', { lobby: game.lobby, round: game.round }));

/** The first three places of a lobby game («1. Kozak, 2. Vovk, 3. Lis, …»): a line, not the whole table. */
const podium = (game: LobbyGameSnapshot) =>
  [...game.order.slice(0, 3).map((name, i) => t('history.lobbyOrder', { place: i + 1, name })), ...(game.order.length > 3 ? ['…'] : [])].join(', ');

const statusText = (status: ApplicationSnapshot['status']) => (status === 'deleted' ? t('history.deleted') : t(`applications.state.${status}`));

const stageWords = (stage: StageSnapshot) => ({
  name: stage.name || t('matchPage.stage', { number: stage.number }),
  format: t(`stages.format.${stage.format}`),
});

/** The match's sides by name; a side not known yet as the match page says it. */
const sides = (match: MatchSnapshot) => ({ a: match.a ?? t('matchPage.tbd'), b: match.b ?? t('matchPage.tbd') });

/** A result as people write it: «2:1», «Kozak won» for a winner without a score, «no result». */
function resultText(match: MatchSnapshot): string {
  const result: ResultSnapshot | null = match.result;
  if (!result) return t('history.noResult');
  if (result.scoreA === null && result.scoreB === null && result.winner) return t('history.won', { name: sides(match)[result.winner] });
  return scoreText(result);
}
