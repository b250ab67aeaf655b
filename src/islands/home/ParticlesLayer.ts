import { tsParticles, type Engine, type ISourceOptions } from '@tsparticles/engine';
import { loadBasic } from '@tsparticles/basic';
import { loadExternalGrabInteraction } from '@tsparticles/interaction-external-grab';
import { loadInteractivityPlugin } from '@tsparticles/plugin-interactivity';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The smallest set of tsParticles features SPEC §1 asks for: circles, movement, opacity, size, grab. */
async function init(engine: Engine): Promise<void> {
  try {
    // A task each, with the browser free in between: one long task would block a reader's input.
    await loadBasic(engine);
    await nextTask();
    await loadInteractivityPlugin(engine);
    await nextTask();
    await loadExternalGrabInteraction(engine);
    await nextTask();
  } catch (error) {
    // A failed effect must not take the page with it: log and carry on.
    console.error('[particles] ініціалізація не вдалася:', error);
    throw error;
  }
}

function options(light: boolean): ISourceOptions {
  return {
    fullScreen: { enable: true, zIndex: -1 },
    background: { color: 'transparent' },
    detectRetina: true,
    fpsLimit: 60,
    particles: {
      number: { value: 50 },
      // White on the dark theme, as the spec says; a soft slate on the light one, where white would vanish.
      color: { value: light ? '#6b7399' : '#ffffff' },
      shape: { type: 'circle' },
      opacity: { value: 0.5 },
      size: { value: { min: 1, max: 3 } },
      move: { enable: true, speed: 2, direction: 'none', random: true, straight: false, outModes: { default: 'out' } },
    },
    interactivity: {
      // The canvas takes no pointer events; hover is read from the window so links stay clickable.
      detectsOn: 'window',
      events: { onHover: { enable: true, mode: 'grab' } },
      modes: { grab: { distance: 140, links: { opacity: 0.45 } } },
    },
  };
}

/**
 * Draws the layer into `#background-particles` (its box is fixed from the start, global.css), in
 * the colours of the theme the page has now. Plain tsParticles: the home page needs no React for it.
 */
export async function startParticles(): Promise<void> {
  await init(tsParticles);
  await tsParticles.load({ id: 'background-particles', options: options(document.body.dataset.theme === 'light') });
}
