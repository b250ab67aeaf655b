import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { namesOf } from '../../components/stages/view.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { createStage, type StageCreateInput } from '../../lib/api/stages.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import type { StagePlanStep } from '../../lib/domain/stage/stage-plan.ts';
import { CreateStage } from './CreateStage.tsx';
import { StagePanel } from './StagePanel.tsx';
import { stageTitle } from './sections.ts';
import type { StagesSync } from './sync.ts';

interface Props {
  sync: StagesSync;
  tournamentId: string;
  /** The tournament still takes applications: the first stage closes them (the admin confirms). */
  pending: boolean;
  /** A clone's stage plan (issue 56): the form for a new stage opens with the next step. */
  plan: StagePlanStep[];
  /** Something the page shows as HTML changed (status, bracket, places): reload it on close. */
  onChanged: () => void;
}

/** Success lines stay 3000 ms (SPEC §9 status messages); errors and news stay until the next action. */
const SUCCESS_MS = 3000;

/**
 * The «Етапи» modal's content (issue 21): a tab per stage and one for a new stage; the chosen
 * stage's matches, tables and actions, or the form that creates one. Polls while shown.
 */
export function StagesBoard({ sync, tournamentId, pending, plan, onChanged }: Props) {
  const { status, data, busy, notice } = useStore(sync.$state);
  // A stage's id, 'new' for the form; null for the latest stage (or the form when there is none).
  const [selected, setSelected] = useState<string | null>(null);
  const [started, setStarted] = useState(false);

  useEffect(() => sync.watch(), [sync]);
  useEffect(() => {
    if (notice?.tone !== 'success') return;
    const timer = setTimeout(() => sync.say(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [notice, sync]);

  if (!data) {
    return status === 'error' ? (
      <Notice tone="error">{t('stageAdmin.loadError')}</Notice>
    ) : (
      <p className="text-sm text-muted" aria-busy="true">
        {t('stageAdmin.loading')}
      </p>
    );
  }

  const stages = data.stages;
  const current = selected === 'new' ? null : (stages.find((s) => s._id === selected) ?? stages.at(-1) ?? null);
  const names = namesOf(data.participants);

  async function create(body: StageCreateInput): Promise<string | null> {
    return sync.change(async () => {
      try {
        const created = await createStage(api, tournamentId, body);
        sync.say({ tone: 'success', text: created.message });
        setSelected(created.stage._id);
        if (pending) setStarted(true);
        onChanged();
        return null;
      } catch (error) {
        return errorMessage(error, t('stageAdmin.createError'));
      }
    });
  }

  const tab = (key: string | 'new', label: string, active: boolean) => (
    <button
      key={key}
      type="button"
      aria-pressed={active}
      onClick={() => setSelected(key)}
      className={`btn border px-3 py-2 ${active ? 'border-accent bg-surface-2 text-accent' : 'border-line hover:bg-surface-2'}`}
    >
      {label}
    </button>
  );

  return (
    <div className="flex flex-col gap-4" aria-busy={busy}>
      <div aria-live="polite" className="empty:hidden">
        {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      </div>
      {stages.length > 0 && (
        <div role="group" aria-label={t('stageAdmin.stagesNav')} className="flex flex-wrap gap-2">
          {stages.map((stage) => tab(stage._id, stageTitle(stage), current?._id === stage._id))}
          {tab('new', `+ ${t('stageAdmin.newStage')}`, current === null)}
        </div>
      )}
      {current ? (
        <StagePanel key={current._id} sync={sync} stage={current} names={names} tournamentId={tournamentId} busy={busy} onChanged={onChanged} />
      ) : (
        <CreateStage state={data} plan={plan} busy={busy} startsTournament={pending && !started && stages.length === 0} onCreate={create} />
      )}
    </div>
  );
}
