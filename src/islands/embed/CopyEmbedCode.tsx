import { useState } from 'react';
import { useHydrated } from '../../lib/hooks/hydration.ts';
import { t } from '../../lib/i18n/index.ts';

/**
 * The copy button beside a tournament's embed code (issue 23). The code itself is server-rendered
 * readonly text (`fieldId`), selectable without JavaScript; the button appears once it can work,
 * copies through the clipboard, and where there is none (an insecure origin, a refused permission)
 * selects the code for a manual copy and says so.
 */
export default function CopyEmbedCode({ code, fieldId }: { code: string; fieldId: string }) {
  const hydrated = useHydrated();
  const [status, setStatus] = useState<'copied' | 'failed' | null>(null);
  if (!hydrated) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setStatus('copied');
    } catch {
      (document.getElementById(fieldId) as HTMLTextAreaElement | null)?.select();
      setStatus('failed');
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className="btn-ghost min-h-11" onClick={() => void copy()}>
        {t('embed.copy')}
      </button>
      <p role="status" className={`text-sm ${status === 'failed' ? 'text-danger' : 'text-success'}`}>
        {status === 'copied' ? t('embed.copied') : status === 'failed' ? t('embed.copyFailed') : ''}
      </p>
    </div>
  );
}
