import { useState } from 'react';
import { apiAsset } from '../../lib/api/assets.ts';

/** One or two letters standing in for a missing logo. */
function initials(name: string): string {
  const words = name.trim().split(/[\s_.-]+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0]![0], words[1]![0]] : [...(words[0] ?? '?')].slice(0, 2);
  return letters.join('').toUpperCase();
}

/** A team's logo; the name's initials when there is none or it fails to load. */
export function TeamLogo({ src, name, alt }: { src: string | null; name: string; alt: string }) {
  const url = src ? apiAsset(src) : null;
  const [broken, setBroken] = useState<string | null>(null);
  if (!url || broken === url) {
    return (
      <span role="img" aria-label={alt} className="inline-flex size-14 shrink-0 items-center justify-center rounded-lg bg-surface-2 text-lg font-bold text-muted">
        {initials(name)}
      </span>
    );
  }
  return <img src={url} alt={alt} width={56} height={56} loading="lazy" className="size-14 shrink-0 rounded-lg bg-surface-2 object-cover" onError={() => setBroken(url)} />;
}
