import { useRef, useState } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { t } from '../../lib/i18n/index.ts';
import { useHydrated, useHydratedStore } from '../../lib/stores/hydration.ts';
import { api } from '../../lib/stores/api.ts';
import { $isAdmin } from '../../lib/stores/session.ts';
import { BracketBoard } from './BracketBoard.tsx';
import { createBracketSync } from './sync.ts';

interface Props {
  tournamentId: string;
}

/**
 * The «Сітка» button of a tournament page (SPEC §2): opens the bracket modal. Without JavaScript
 * (and until hydrated) it is a link to the bracket page, which shows the same bracket as HTML.
 */
export default function BracketButton({ tournamentId }: Props) {
  const hydrated = useHydrated();
  const isAdmin = useHydratedStore($isAdmin, false);
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
    // The page shows the tournament's winner as HTML: show the one just declared.
    if (reloadOnClose.current) window.location.reload();
  }

  return (
    <>
      <button type="button" className="btn-ghost" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t('tournament.bracket')}
      </button>
      <Modal
        open={open}
        title={t('bracket.title')}
        onClose={close}
      >
        {/* Mounted only while open: the board polls as long as it is shown. */}
        {open && (
          <>
            <BracketBoard
              sync={sync}
              tournamentId={tournamentId}
              isAdmin={isAdmin}
              onWinnerSet={() => {
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
