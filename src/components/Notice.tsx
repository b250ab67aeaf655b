import type { ReactNode } from 'react';

export type NoticeTone = 'info' | 'success' | 'error';

const tones: Record<NoticeTone, string> = {
  info: 'border-line text-fg',
  success: 'border-success text-success',
  error: 'border-danger text-danger',
};

/** A status line under a form: announced to screen readers, coloured by tone. */
export function Notice({ tone = 'info', children }: { tone?: NoticeTone; children: ReactNode }) {
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border px-3 py-2 text-sm ${tones[tone]}`}>
      {children}
    </p>
  );
}
