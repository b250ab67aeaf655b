import { useId, useState, type ReactNode } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { namesOf } from '../../components/stages/view.ts';
import type { StageCreateInput, StagesState } from '../../lib/api/stages.ts';
import { MAX_SWISS_THRESHOLD, STAGE_FORMATS, STAGE_SEEDINGS, type StageFormat } from '../../lib/domain/stage/format.ts';
import type { StagePlanStep } from '../../lib/domain/stage/stage-plan.ts';
import { t } from '../../lib/i18n/index.ts';
import {
  BEST_OF_CHOICES,
  DECIDING_BEST_OF_CHOICES,
  formFromPlan,
  GRAND_FINALS,
  GROUP_CHOICES,
  settingsOf,
  stageBody,
  tieBreakersOf,
  type StageForm,
} from './form.ts';
import type { FfaForm } from './ffa-form.ts';
import { BestOfRules, TieBreakers } from './StageRules.tsx';
import { ManualSeeding } from './ManualSeeding.tsx';
import { reconcileOrder } from './seeding.ts';
import { stageTitle } from './sections.ts';

interface Props {
  state: StagesState;
  /** A clone's stage plan (issue 56): the form opens with the step for the next stage, when there is one. */
  plan: StagePlanStep[];
  busy: boolean;
  /** The first stage of a pending tournament closes applications: the admin confirms first. */
  startsTournament: boolean;
  /** Sends the stage; resolves to the server's refusal, or null once it is created. */
  onCreate: (body: StageCreateInput) => Promise<string | null>;
}

/**
 * Creating a stage (issue 21): format, name, who plays (the approved participants or the best of
 * an earlier stage), seeding (manual: an ordered list), and the format's own settings.
 */
export function CreateStage({ state, plan, busy, startsTournament, onCreate }: Props) {
  const step = plan[state.stages.length];
  const [form, setForm] = useState<StageForm>(() => formFromPlan(step, state.stages, state.participants.map((p) => p._id)));
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const id = useId();
  const set = (changes: Partial<StageForm>) => setForm((current) => ({ ...current, ...changes }));
  // The approved participants may change while the form is open (a poll): the manual list follows.
  const order = reconcileOrder(form.order, state.participants);
  const shown = settingsOf(form);
  const names = namesOf(state.participants);

  async function submit(confirmed: boolean) {
    setProblem(null);
    const built = stageBody({ ...form, order });
    if (!built.ok) return setProblem(built.message);
    if (startsTournament && !confirmed) return setConfirming(true);
    setConfirming(false);
    const refusal = await onCreate(built.body);
    if (refusal) setProblem(refusal);
  }

  const select = (
    name: string,
    label: string,
    value: string | number,
    options: { value: string | number; label: string }[],
    onChange: (value: string) => void,
  ) => (
    <div className="flex flex-col gap-1 text-sm font-medium">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <select id={`${id}-${name}`} className="field min-h-11" value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="flex w-full max-w-3xl flex-col gap-4 rounded-card border border-accent/60 p-2.5 sm:p-4">
      <h3 id={`${id}-title`} className="font-semibold">
        {t('stageAdmin.createTitle')}
      </h3>
      {step && <p className="-mt-2 text-sm text-muted">{t('stageAdmin.fromPlan', { stage: state.stages.length + 1, stages: plan.length })}</p>}
      <form
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit(false);
        }}
      >
        <Choices legend={t('stageAdmin.format')}>
          {STAGE_FORMATS.map((format) => (
            <Radio key={format} name={`${id}-format`} checked={form.format === format} onChange={() => set({ format: format as StageFormat })}>
              {t(`stages.format.${format}`)}
            </Radio>
          ))}
        </Choices>

        <Field
          label={t('stageAdmin.name')}
          id={`${id}-name`}
          limit={100}
          value={form.name}
          placeholder={t(`stages.format.${form.format}`)}
          onChange={(event) => set({ name: event.target.value })}
          className="min-h-11"
        />

        {state.stages.length > 0 &&
          select(
            'from',
            t('stageAdmin.from'),
            form.fromStage,
            [
              { value: '', label: t('stageAdmin.fromApproved') },
              ...state.stages.map((stage) => ({ value: stage._id, label: t('stageAdmin.fromStage', { stage: stageTitle(stage) }) })),
            ],
            (value) => set({ fromStage: value }),
          )}

        {form.fromStage ? (
          <>
            <Field
              label={t('stageAdmin.advance')}
              id={`${id}-advance`}
              type="number"
              inputMode="numeric"
              min={1}
              value={String(form.advance)}
              onChange={(event) => set({ advance: Number(event.target.value) })}
              className="min-h-11"
            />
            <p className="-mt-2 text-xs text-muted">{t('stageAdmin.crossSeeded')}</p>
          </>
        ) : (
          <>
            <p className="text-sm text-muted">{t('stageAdmin.approvedCount', { count: state.participants.length })}</p>
            <Choices legend={t('stageAdmin.seeding')}>
              {STAGE_SEEDINGS.map((seeding) => (
                <Radio key={seeding} name={`${id}-seeding`} checked={form.seeding === seeding} onChange={() => set({ seeding })}>
                  {t(`stageAdmin.seeding.${seeding}`)}
                </Radio>
              ))}
            </Choices>
            {form.seeding === 'manual' && <ManualSeeding order={order} names={names} onChange={(next) => set({ order: next })} />}
          </>
        )}

        <fieldset className="flex flex-col gap-3 rounded-lg border border-line p-3">
          <legend className="px-1 text-sm font-semibold">{t('stageAdmin.settings')}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {shown.matches &&
              select(
                'best-of',
                t('stageAdmin.bestOf'),
                form.bestOf,
                BEST_OF_CHOICES.map((n) => ({ value: n, label: t('stageAdmin.bestOfChoice', { bestOf: n }) })),
                (value) => set({ bestOf: Number(value) }),
              )}
            {shown.grandFinal &&
              select(
                'grand-final',
                t('stageAdmin.grandFinal'),
                form.grandFinal,
                GRAND_FINALS.map((kind) => ({ value: kind, label: t(`stageAdmin.grandFinal.${kind}`) })),
                (value) => set({ grandFinal: value as StageForm['grandFinal'] }),
              )}
            {shown.groups &&
              select(
                'groups',
                t('stageAdmin.groups'),
                form.groups,
                GROUP_CHOICES.map((n) => ({ value: n, label: String(n) })),
                (value) => set({ groups: Number(value) }),
              )}
            {shown.gslGroups &&
              select(
                'gsl-groups',
                t('stageAdmin.groups'),
                form.gslGroups,
                [{ value: 0, label: t('stageAdmin.groupsAuto') }, ...GROUP_CHOICES.map((n) => ({ value: n, label: String(n) }))],
                (value) => set({ gslGroups: Number(value) }),
              )}
            {shown.rounds && (
              <Field
                label={t('stageAdmin.rounds')}
                id={`${id}-rounds`}
                type="number"
                inputMode="numeric"
                min={1}
                max={20}
                placeholder={t('stageAdmin.roundsAuto')}
                value={form.rounds}
                onChange={(event) => set({ rounds: event.target.value })}
                className="min-h-11"
              />
            )}
          </div>
          {shown.gslGroups && <p className="-mt-1 text-xs text-muted">{t('stageAdmin.gslGroupsHint')}</p>}
          {shown.thirdPlace && (
            <Check checked={form.thirdPlace} onChange={(checked) => set({ thirdPlace: checked })}>
              {t('stageAdmin.thirdPlace')}
            </Check>
          )}
          {shown.doubleRound && (
            <Check checked={form.doubleRound} onChange={(checked) => set({ doubleRound: checked })}>
              {t('stageAdmin.doubleRound')}
            </Check>
          )}
          {shown.thresholds && (
            <Check checked={form.thresholds} onChange={(checked) => set({ thresholds: checked })} hint={t('stageAdmin.thresholdsHint')}>
              {t('stageAdmin.thresholds')}
            </Check>
          )}
          {shown.thresholdFields && (
            <div className="grid gap-3 sm:grid-cols-3">
              {(['winsToAdvance', 'lossesToEliminate'] as const).map((field) => (
                <Field
                  key={field}
                  label={t(`field.${field}`)}
                  id={`${id}-${field}`}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_SWISS_THRESHOLD}
                  value={form[field]}
                  onChange={(event) => set(field === 'winsToAdvance' ? { winsToAdvance: event.target.value } : { lossesToEliminate: event.target.value })}
                  className="min-h-11"
                />
              ))}
              {select(
                'deciding-best-of',
                t('field.decidingBestOf'),
                form.decidingBestOf,
                DECIDING_BEST_OF_CHOICES.map((n) => ({ value: n, label: t('stageAdmin.bestOfChoice', { bestOf: n }) })),
                (value) => set({ decidingBestOf: Number(value) }),
              )}
            </div>
          )}
          {shown.autoPair && (
            <Check checked={form.autoPair} onChange={(checked) => set({ autoPair: checked })} hint={t('stageAdmin.autoPairHint')}>
              {t('stageAdmin.autoPair')}
            </Check>
          )}
          {shown.ffa && <FfaFields id={id} form={form.ffa} onChange={(ffa) => set({ ffa: { ...form.ffa, ...ffa } })} />}
          {shown.matches && <BestOfRules format={form.format} rules={form.bestOfRules} onChange={(bestOfRules) => set({ bestOfRules })} />}
          {shown.matches && (
            <Check checked={form.veto} onChange={(checked) => set({ veto: checked })}>
              {t('stageAdmin.veto')}
            </Check>
          )}
          {shown.tieBreakers && <TieBreakers value={tieBreakersOf(form)} onChange={(tieBreakers) => set({ tieBreakers })} />}
        </fieldset>

        {problem && <Notice tone="error">{problem}</Notice>}

        {confirming ? (
          <div role="alert" className="flex flex-col gap-3 rounded-lg border border-warning p-3 text-sm">
            <p className="font-semibold text-warning">{t('stageAdmin.startsTournament')}</p>
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-ghost min-h-11" onClick={() => setConfirming(false)}>
                {t('stageAdmin.cancel')}
              </button>
              <button type="button" className="btn-primary min-h-11" disabled={busy} onClick={() => void submit(true)}>
                {t('stageAdmin.confirmStart')}
              </button>
            </div>
          </div>
        ) : (
          <button type="submit" className="btn-primary min-h-11 self-start" disabled={busy}>
            {t('stageAdmin.create')}
          </button>
        )}
      </form>
    </section>
  );
}

function Choices({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-1 text-sm">
      <legend className="mb-1 font-medium">{legend}</legend>
      <div className="grid gap-1 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

function Radio({ name, checked, onChange, children }: { name: string; checked: boolean; onChange: () => void; children: ReactNode }) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-2 hover:bg-surface-2">
      <input type="radio" name={name} checked={checked} onChange={onChange} className="size-4 shrink-0 accent-primary" />
      <span>{children}</span>
    </label>
  );
}

function Check({ checked, onChange, hint, children }: { checked: boolean; onChange: (checked: boolean) => void; hint?: string; children: ReactNode }) {
  const id = useId();
  const box = (
    <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="size-4 shrink-0 accent-primary"
      />
      <span>{children}</span>
    </label>
  );
  if (!hint) return box;
  return (
    <div className="flex flex-col">
      {box}
      <p id={`${id}-hint`} className="-mt-1.5 pl-6 text-xs text-muted">
        {hint}
      </p>
    </div>
  );
}

/** A free-for-all stage's fields (issue 59): lobby size, games, who goes on from each lobby, the points. */
function FfaFields({ id, form, onChange }: { id: string; form: FfaForm; onChange: (change: Partial<FfaForm>) => void }) {
  const numeric = (field: 'lobbySize' | 'games' | 'advance' | 'killPoints', label: string, hint?: string) => (
    <div className="flex flex-col gap-1">
      <Field
        label={label}
        id={`${id}-ffa-${field}`}
        type="number"
        inputMode="numeric"
        min={field === 'killPoints' ? 0 : 1}
        value={form[field]}
        onChange={(event) => onChange({ [field]: event.target.value })}
        className="min-h-11"
        aria-describedby={hint ? `${id}-ffa-${field}-hint` : undefined}
      />
      {hint && (
        <p id={`${id}-ffa-${field}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
    </div>
  );
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-ffa-fields>
      {numeric('lobbySize', t('stageAdmin.ffa.lobbySize'))}
      {numeric('games', t('stageAdmin.ffa.games'))}
      {numeric('advance', t('stageAdmin.ffa.advance'), t('stageAdmin.ffa.advanceHint'))}
      {numeric('killPoints', t('stageAdmin.ffa.killPoints'))}
      <div className="flex flex-col gap-1 sm:col-span-2">
        <Field
          label={t('stageAdmin.ffa.placementPoints')}
          id={`${id}-ffa-placement`}
          inputMode="numeric"
          value={form.placementPoints}
          onChange={(event) => onChange({ placementPoints: event.target.value })}
          className="min-h-11"
          aria-describedby={`${id}-ffa-placement-hint`}
        />
        <p id={`${id}-ffa-placement-hint`} className="text-xs text-muted">
          {t('stageAdmin.ffa.placementHint')}
        </p>
      </div>
    </div>
  );
}
