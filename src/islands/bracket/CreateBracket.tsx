import { useId, useState, type ReactNode } from 'react';
import type { Seeding } from '../../lib/domain/bracket.ts';
import { t } from '../../lib/i18n/index.ts';
import type { CreateOutcome } from './sync.ts';

interface Props {
  participants: number;
  hasBracket: boolean;
  /** Results were played: drawing again loses them, so the admin confirms and `replace` is sent. */
  hasResults: boolean;
  /** The tournament still takes applications: drawing closes them and starts it, so the admin confirms first. */
  startsTournament: boolean;
  busy: boolean;
  onCreate: (seeding: Seeding, replace: boolean) => Promise<CreateOutcome>;
}

/**
 * Admin: create the bracket from the approved participants (SPEC §4 Bracket creation, §5), in
 * application order or by standard seeding. The server checks the count and answers with
 * «Сітку створено для N учасників!» or the §5 message, shown at the top of the modal. Drawing
 * closes applications: the server starts a pending tournament with it, after the admin confirms here.
 */
export function CreateBracket({ participants, hasBracket, hasResults, startsTournament, busy, onCreate }: Props) {
  const [seeding, setSeeding] = useState<Seeding>('order');
  const [confirming, setConfirming] = useState<'replace' | 'start' | null>(null);
  const name = useId();

  async function create(replace: boolean, confirmed = false) {
    if (hasResults && !replace) {
      setConfirming('replace');
      return;
    }
    if (startsTournament && !confirmed) {
      setConfirming('start');
      return;
    }
    setConfirming(null);
    // Someone may have recorded a result since our last poll: the server asks for confirmation then.
    if ((await onCreate(seeding, replace)) === 'needsReplace') setConfirming('replace');
  }

  const form = (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted">{t('bracket.approvedCount', { count: participants })}</p>
      {participants === 0 && (
        <p role="status" className="rounded-lg border border-warning px-3 py-2 text-sm text-warning">
          {t('bracket.approveFirst')}
        </p>
      )}
      <fieldset className="flex flex-col gap-1.5 text-sm">
        <legend className="mb-1 font-medium">{t('bracket.seeding')}</legend>
        {(['order', 'standard'] as const).map((value) => (
          <label key={value} className="flex items-start gap-2">
            <input type="radio" name={name} value={value} checked={seeding === value} onChange={() => setSeeding(value)} className="mt-1 accent-primary" />
            <span>{t(`bracket.seeding.${value}`)}</span>
          </label>
        ))}
      </fieldset>
      {confirming ? (
        <div role="alert" className="flex flex-col gap-3 rounded-lg border border-warning p-3 text-sm">
          <p className="font-semibold text-warning">{t(confirming === 'replace' ? 'bracket.confirmReplace' : 'bracket.startsTournament')}</p>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-ghost" onClick={() => setConfirming(null)}>
              {t('bracket.cancel')}
            </button>
            <button type="button" className="btn-primary" disabled={busy} onClick={() => void create(confirming === 'replace', true)}>
              {t(confirming === 'replace' ? 'bracket.replaceButton' : 'bracket.confirmStart')}
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="btn-primary self-start" disabled={busy} onClick={() => void create(false)}>
          {t('bracket.createButton')}
        </button>
      )}
    </div>
  );

  return hasBracket ? (
    <details className="rounded-card border border-line p-3" open={confirming !== null || undefined}>
      <summary className="cursor-pointer text-sm font-semibold">{t('bracket.recreateTitle')}</summary>
      <div className="mt-3">{form}</div>
    </details>
  ) : (
    <Section title={t('bracket.createTitle')}>{form}</Section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-card border border-accent/60 p-3">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}
