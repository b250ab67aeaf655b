import { useRef, useState } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { t } from '../../lib/i18n/index.ts';
import { useHydrated } from '../../lib/hooks/hydration.ts';
import { useCanOrganise } from '../../lib/hooks/organiser.ts';
import { api } from '../../lib/stores/api.ts';
import { BracketBoard } from './BracketBoard.tsx';
import { createBracketSync } from './sync.ts';

interface Props {
  tournamentId: string;
  /** The organisation hosting it (issue 56): its people organise it too. */
  hostId?: string | null;
  /** The tournament still takes applications (drawing the bracket will start it). */
  pending?: boolean;
}

/**
 * The «Сітка» button of a tournament page (SPEC §2): opens the bracket modal. Without JavaScript
 * (and until hydrated) it is a link to the bracket page, which shows the same bracket as HTML.
 */
export default function BracketButton({ tournamentId, hostId = null, pending = false }: Props) {
  const hydrated = useHydrated();
  // The organisers (an admin, or the tournament's staff: decision 016) edit it; everyone else reads it.
  const isAdmin = useCanOrganise(tournamentId, hostId);
  const [open, setOpen] = useState(false);
  // One copy of the bracket per page: opening the modal again shows it at once, then refreshes.
  const [sync] = useState(() => createBracketSync(api, tournamentId));
  const reloadOnClose = useRef(false);

  if (!hydrated) {
    return (
      <a href={`/tournament/${tournamentId}/bracket`} className="btn-ghost">
        {t('tournament.bracket')}
      </a>
    );
  }

  function close() {
    if (!open) return;
    setOpen(false);
    // The page shows the tournament's status, apply block and winner as HTML: show what just changed.
    if (reloadOnClose.current) window.location.reload();
  }

  return (
    <>
      <button type="button" className="btn-ghost" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t('tournament.bracket')}
      </button>
      {/* Wide on a desktop, so the bracket is drawn as a tree as on the bracket page. */}
      <Modal open={open} title={t('bracket.title')} onClose={close} wide>
        {/* Mounted only while open: the board polls as long as it is shown. */}
        {open && (
          <>
            <BracketBoard
              sync={sync}
              tournamentId={tournamentId}
              isAdmin={isAdmin}
              pending={pending}
              onTournamentChanged={() => {
                reloadOnClose.current = true;
              }}
            />
            <button type="button" className="btn-ghost self-end" onClick={close}>
              {t('bracket.close')}
            </button>
          </>
        )}
      </Modal>
    </>
  );
}
