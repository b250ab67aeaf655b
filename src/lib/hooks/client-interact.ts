import type { ClientDirective } from 'astro';

/**
 * `client:interact` (registered in astro.config.mjs): hydrates an island on the reader's first sign
 * of interest in it — the pointer over it, a touch, a focus or a key inside it — so a page that is
 * only read (a profile) loads no React. A button clicked before React is ready is clicked again
 * once it is, so the first press is not lost; links work without React anyway.
 */
const interact: ClientDirective = (load, _options, el) => {
  const triggers = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;
  let pressed: HTMLButtonElement | null = null;
  const remember = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button) pressed = button;
  };
  const start = async () => {
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
  for (const name of triggers) el.addEventListener(name, start, { passive: true });
};

export default interact;

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first pointer, touch, focus or key inside the island (src/lib/hooks/client-interact.ts). */
    'client:interact'?: boolean;
  }
}
