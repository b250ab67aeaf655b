import { CheckInList, MyMatchList } from '../../components/MyMatchesView.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useMyMatches } from '../../lib/hooks/my-matches.ts';
import { readerTimeZone } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';

/**
 * A team card's next matches and open check-ins (issue 22): «Мої матчі» narrowed to this team,
 * drawn as the cabinet draws them; the captain's check-in button, the members' note.
 */
export function TeamMatches({ teamId, userId }: { teamId: string; userId: string }) {
  const { state, busy, problem, toggleCheckIn } = useMyMatches(userId);
  const timeZone = readerTimeZone();
  const headingId = `team-matches-${teamId}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="font-semibold">
        {t('myMatches.teamTitle')}
      </h3>
      {state.kind === 'loading' && <p className="text-sm text-muted">{t('myMatches.loading')}</p>}
      {state.kind === 'error' && <Notice tone="error">{state.message}</Notice>}
      {state.kind === 'ready' && (
        <>
          <CheckInList
            checkIns={state.data.checkIns.filter((c) => c.team?._id === teamId)}
            timeZone={timeZone}
            busy={busy}
            problem={problem}
            onToggle={(id, on) => void toggleCheckIn(id, on)}
          />
          <MyMatchList matches={state.data.matches.filter((m) => m.me._id === teamId)} timeZone={timeZone} showSide={false} />
        </>
      )}
    </section>
  );
}
