import { useCanOrganise } from '../../lib/hooks/organiser.ts';
import { t } from '../../lib/i18n/index.ts';

/** The way from a tournament's page into its control room (issue 57), for its organisers only. */
export default function ControlRoomLink({ tournamentId, hostId = null }: { tournamentId: string; hostId?: string | null }) {
  if (!useCanOrganise(tournamentId, hostId)) return null;
  return (
    <a className="btn-primary" href={`/tournaments/${tournamentId}/control`} data-control-room>
      {t('control.open')}
    </a>
  );
}
