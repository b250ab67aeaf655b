import type { ClientDirective } from 'astro';

/** The localStorage keys named by the directive's value that hold something (the reader has state the server could not know). */
export function storedKeys(value: unknown, storage: Pick<Storage, 'getItem'>): string[] {
  const keys = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : [];
  return keys.filter((key) => {
    try {
      return Boolean(storage.getItem(key));
    } catch {
      return false;
    }
  });
}

/**
 * `client:interact` (registered in astro.config.mjs): hydrates an island on the reader's first sign
 * of interest in it — the pointer over it, a touch, a focus or a key inside it — so a page that is
 * only read loads no React. A button clicked before React is ready is clicked again once it is, so
 * the first press is not lost; links work without React anyway.
 *
 * `client:interact="token lb_tab"`: when any of these localStorage keys is set (a session, a stored
 * choice), the server's HTML is not this reader's view, so the island hydrates once the browser is
 * idle, as `client:idle` would. An island that draws nothing for guests never hydrates for them.
 */
const interact: ClientDirective = (load, options, el) => {
  let started = false;
  const triggers = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;
  let pressed: HTMLButtonElement | null = null;
  const remember = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button) pressed = button;
  };
  const start = async () => {
    if (started) return;
    started = true;
    for (const name of triggers) el.removeEventListener(name, start);
    el.addEventListener('click', remember);
    try {
      const hydrate = await load();
      await hydrate();
    } finally {
      el.removeEventListener('click', remember);
    }
    const button: HTMLButtonElement | null = pressed;
    if (button?.isConnected && !button.disabled) button.click();
  };

  if (storedKeys(options.value, localStorage).length > 0) {
    const run = () => void start();
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
    else setTimeout(run, 200);
    return;
  }
  for (const name of triggers) el.addEventListener(name, start, { passive: true });
};

export default interact;

declare module 'astro' {
  interface AstroClientDirectives {
    /**
     * Hydrate on the first pointer, touch, focus or key inside the island; with a value (localStorage
     * keys, space-separated), at idle when any of them is set (src/lib/hooks/client-interact.ts).
     */
    'client:interact'?: boolean | string;
  }
}
