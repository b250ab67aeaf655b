import { apiAsset, DEFAULT_AVATAR } from '../lib/api/assets.ts';
import { fallbackTo } from './fallback-image.ts';

const sizes = { sm: { px: 24, box: 'size-6' }, md: { px: 32, box: 'size-8' }, lg: { px: 96, box: 'size-24' } } as const;

const showDefaultAvatar = fallbackTo(DEFAULT_AVATAR);

interface Props {
  user: { _id: string; username: string; avatar?: string | null };
  size?: keyof typeof sizes;
  /** Show the name beside the picture (the picture is then decorative). */
  showName?: boolean;
  className?: string;
  /** Where the name links (the player's profile, `profilePath`); plain text without it. */
  href?: string | undefined;
}

/** A user's picture, falling back to the default one when it cannot load, with the name beside it. */
export function UserAvatar({ user, size = 'md', showName = true, className = '', href }: Props) {
  const { px, box } = sizes[size];
  return (
    <span className={`inline-flex min-w-0 items-center gap-2 ${className}`}>
      <img
        src={apiAsset(user.avatar || `/api/avatar/${user._id}`)}
        alt={showName ? '' : user.username}
        width={px}
        height={px}
        loading="lazy"
        decoding="async"
        className={`${box} shrink-0 rounded-full bg-surface-2 object-cover`}
        onError={showDefaultAvatar}
      />
      {showName &&
        (href ? (
          <a href={href} className="truncate">
            {user.username}
          </a>
        ) : (
          <span className="truncate">{user.username}</span>
        ))}
    </span>
  );
}
