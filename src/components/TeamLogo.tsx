import { useState } from 'react';
import { apiAsset } from '../lib/api/assets.ts';
import { pictureSrc } from '../lib/domain/address.ts';
import { teamInitials } from '../lib/domain/team.ts';

const SIZES = {
  /** The team tab's card. */
  large: { px: 56, box: 'size-14', text: 'text-lg' },
  /** A leaderboard row. */
  small: { px: 32, box: 'size-8', text: 'text-xs' },
} as const;

/**
 * A team's logo; the name's initials when there is none or it fails to load. With `alt` it is a
 * picture of its own; without, it is decoration beside the team's name.
 */
export function TeamLogo({ src, name, alt, size = 'large' }: { src: string | null; name: string; alt?: string; size?: keyof typeof SIZES }) {
  const shown = pictureSrc(src);
  const url = shown ? apiAsset(shown) : null;
  const [broken, setBroken] = useState<string | null>(null);
  const { px, box, text } = SIZES[size];
  if (!url || broken === url) {
    return (
      <span
        {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
        className={`inline-flex ${box} shrink-0 items-center justify-center rounded-lg bg-surface-2 ${text} font-bold text-muted`}
      >
        {teamInitials(name)}
      </span>
    );
  }
  return <img src={url} alt={alt ?? ''} width={px} height={px} loading="lazy" className={`${box} shrink-0 rounded-lg bg-surface-2 object-cover`} onError={() => setBroken(url)} />;
}
