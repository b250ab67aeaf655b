import { useState } from 'react';
import { errorMessage } from '../api/client.ts';
import { t } from '../i18n/index.ts';

export type AdminMessage = { tone: 'success' | 'error'; text: string };

/**
 * The busy flag and the ✅/❌ message line of an admin panel, and `run`, which performs one change
 * through the API and reports it there (SPEC §8: admin panel messages carry those marks).
 */
export function useAdminTask() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<AdminMessage | null>(null);

  /** Runs `task`; on success shows its message and calls `after`. Resolves to whether it succeeded. */
  async function run(task: () => Promise<{ message: string }>, fallback: string, after?: () => void): Promise<boolean> {
    setBusy(true);
    setMessage(null);
    try {
      const done = await task();
      setMessage({ tone: 'success', text: t('manage.success', { message: done.message }) });
      after?.();
      return true;
    } catch (error) {
      setMessage({ tone: 'error', text: t('manage.error', { message: errorMessage(error, fallback) }) });
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** Shows a ❌ line for input refused before any request. */
  const refuse = (text: string) => setMessage({ tone: 'error', text: t('manage.error', { message: text }) });

  return { busy, message, setMessage, run, refuse };
}
