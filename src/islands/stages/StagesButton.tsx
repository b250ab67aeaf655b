import { useRef, useState } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { useCanOrganise } from '../../lib/hooks/organiser.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import type { StagePlanStep } from '../../lib/domain/stage/stage-plan.ts';
import { StagesBoard } from './StagesBoard.tsx';
import { createStagesSync } from './sync.ts';

interface Props {
  tournamentId: string;
  /** The organisation hosting it (issue 56): its people organise it too. */
  hostId?: string | null;
  /** The tournament still takes applications: its first stage starts it. */
  pending?: boolean;
  /** A clone's stage plan (issue 56): the form for a new stage opens with the next step. */
  plan?: StagePlanStep[];
}

/**
 * The organisers' «Етапи» button on a tournament page (issue 21; an admin or the tournament's
 * staff, decision 016), next to the bracket button: opens the modal where stages are created,
 * seeded and their results entered. Nothing for anyone else (and nothing until hydrated, as the
 * server rendered).
 */
export default function StagesButton({ tournamentId, hostId = null, pending = false, plan = [] }: Props) {
  const organises = useCanOrganise(tournamentId, hostId);
  const [open, setOpen] = useState(false);
  const [sync] = useState(() => createStagesSync(api, tournamentId));
  // The page shows the tournament's status, participants and winner control as HTML: after a change, show it anew.
  const reloadOnClose = useRef(false);

  if (!organises) return null;

  function close() {
    if (!open) return;
    setOpen(false);
    if (reloadOnClose.current) window.location.reload();
  }

  return (
    <>
      <button type="button" className="btn-ghost" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t('stageAdmin.open')}
      </button>
      <Modal open={open} title={t('stageAdmin.title')} onClose={close} wide>
        {open && (
          <>
            <StagesBoard
              sync={sync}
              pending={pending}
              plan={plan}
              tournamentId={tournamentId}
              onChanged={() => {
                reloadOnClose.current = true;
              }}
            />
            <button type="button" className="btn-ghost self-end" onClick={close}>
              {t('stageAdmin.close')}
            </button>
          </>
        )}
      </Modal>
    </>
  );
}
