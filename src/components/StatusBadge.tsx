import { normalizeStatus, statusLabelKey } from '../lib/domain/tournament-status.ts';
import { t } from '../lib/i18n/tournament-list.ts';

const tones = {
  pending: 'border-warning text-warning',
  started: 'border-success text-success',
  finished: 'border-line text-muted',
} as const;

/** The tournament status as a small coloured label: Очікує orange, Розпочато green, Завершено grey (SPEC §4). */
export function StatusBadge({ status }: { status: string }) {
  const normalized = normalizeStatus(status);
  const tone = normalized ? tones[normalized] : 'border-line text-muted';
  return (
    <span className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold ${tone}`}>{t(statusLabelKey(status))}</span>
  );
}
