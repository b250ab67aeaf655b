import { useEffect, useId, useState } from 'react';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { forgetDevice, registerDevice, type DeviceSubscription } from '../../lib/api/push-calls.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { currentSubscription, notificationPermission, subscribe } from './device-push.ts';

/** This device: not known yet, off, on, or notifications refused by the reader in the browser. */
type DeviceState = 'checking' | 'off' | 'on' | 'denied';

const asJson = (subscription: PushSubscription) => subscription.toJSON() as DeviceSubscription;

/**
 * «Сповіщення на пристрій» (issue 60): turns web push on or off for this device. Shown by the notice
 * settings only when the site has push and the browser can take it. On, it asks the browser's
 * permission, subscribes with the site's key and registers the device; off, it forgets the device
 * on the server and unsubscribes it. A device already on says so to the server again on every
 * visit, so a device the server dropped, or that another account used last, belongs to this reader again.
 */
export function DevicePush({ publicKey }: { publicKey: string }) {
  const [state, setState] = useState<DeviceState>('checking');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const id = useId();

  useEffect(() => {
    let live = true;
    const check = async (): Promise<DeviceState> => {
      if (notificationPermission() === 'denied') return 'denied';
      const held = await currentSubscription(publicKey);
      if (!held) return 'off';
      await registerDevice(api, asJson(held)).catch(() => undefined);
      return 'on';
    };
    check().then(
      (found) => live && setState(found),
      () => live && setState('off'),
    );
    return () => {
      live = false;
    };
  }, [publicKey]);

  async function turn(on: boolean) {
    setBusy(true);
    setStatus(null);
    try {
      if (on) {
        const made = await subscribe(publicKey);
        if (!made) {
          setState(notificationPermission() === 'denied' ? 'denied' : 'off');
          return;
        }
        try {
          const saved = await registerDevice(api, asJson(made));
          setStatus({ tone: 'success', text: saved.message });
        } catch (error) {
          // Not on for the server, so not on here either: the switch shows what is true.
          await made.unsubscribe().catch(() => false);
          throw error;
        }
        setState('on');
      } else {
        const held = await currentSubscription(publicKey);
        if (held) {
          const forgotten = await forgetDevice(api, held.endpoint);
          await held.unsubscribe().catch(() => false);
          setStatus({ tone: 'success', text: forgotten.message });
        }
        setState('off');
      }
    } catch (error) {
      setStatus({ tone: 'error', text: t('notices.push.error', { message: errorMessage(error, t('notices.push.failed')) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-line p-3" data-device-push>
      <label className="flex cursor-pointer items-start justify-between gap-4">
        <span className="flex flex-col gap-1">
          <span id={`${id}-title`} className="font-semibold">
            {t('notices.push.title')}
          </span>
          <span id={`${id}-intro`} className="text-sm text-muted">
            {t('notices.push.intro')}
          </span>
        </span>
        <input
          type="checkbox"
          role="switch"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-intro`}
          className="relative mt-1 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full border border-line bg-surface-2 transition-colors before:absolute before:left-[2px] before:top-[2px] before:size-[18px] before:rounded-full before:bg-muted before:transition-transform checked:border-primary checked:bg-primary checked:before:translate-x-5 checked:before:bg-primary-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-50"
          checked={state === 'on'}
          disabled={busy || state === 'checking' || state === 'denied'}
          aria-busy={busy || state === 'checking'}
          onChange={(event) => void turn(event.target.checked)}
        />
      </label>
      {busy && <p className="text-sm text-muted">{t('notices.push.working')}</p>}
      {state === 'denied' && <p className="rounded-lg border border-warning px-3 py-2 text-sm text-warning">{t('notices.push.denied')}</p>}
      {status && <Notice tone={status.tone}>{status.text}</Notice>}
    </div>
  );
}
