import { useEffect, useState, type ComponentType } from 'react';

/**
 * The decorative particle layer (SPEC §1). Renders nothing until the browser is idle, and never
 * loads tsParticles at all for a reader who prefers reduced motion.
 */
export default function ParticlesBackground() {
  const [Layer, setLayer] = useState<ComponentType | null>(null);

  useEffect(() => {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    let live = true;
    import('./ParticlesLayer.tsx').then(
      (module) => live && setLayer(() => module.default),
      (error: unknown) => console.error('[particles] не вдалося завантажити:', error),
    );
    return () => {
      live = false;
    };
  }, []);

  return Layer ? <Layer /> : null;
}
