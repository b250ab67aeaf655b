import { useId } from 'react';
import { t } from '../../lib/i18n/index.ts';

interface Props {
  completed: number;
  total: number;
  percent: number;
}

/** Completed matches out of all, with the percentage (SPEC §2): a native progress bar with its label. */
export function ProgressBar({ completed, total, percent }: Props) {
  const id = useId();
  const text = t('bracket.progress', { completed, total, percent });
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span id={id} className="font-semibold">
          {t('bracket.progressLabel')}
        </span>
        <span className="text-muted">{text}</span>
      </div>
      <progress
        aria-labelledby={id}
        aria-valuetext={text}
        value={completed}
        max={Math.max(total, 1)}
        className="h-2 w-full appearance-none overflow-hidden rounded-full bg-surface-2 [&::-moz-progress-bar]:bg-accent [&::-webkit-progress-bar]:bg-surface-2 [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-accent"
      />
    </div>
  );
}
