import type { ReactNode } from 'react';
import { chatTime } from '../../lib/domain/chat.ts';
import { profilePath } from '../../lib/domain/participant.ts';
import { t } from '../../lib/i18n/index.ts';
import { UserAvatar } from '../UserAvatar.tsx';

interface Props {
  /** The author; null once the account is gone. */
  author: { _id: string; username: string; avatar: string } | null;
  createdAt: string;
  message: string;
  /** The reader's own message: it sits on the right. */
  mine: boolean;
  /** Shown after the author's name (a match chat's side or «Організатор»). */
  badge?: ReactNode;
}

/** One message of a chat (the team's, a match's): the author's picture and name, the time, the text as text. */
export function ChatMessageItem({ author, createdAt, message, mine, badge }: Props) {
  const name = author?.username ?? t('chat.deletedAuthor');
  return (
    <li className={`flex max-w-[85%] gap-2 ${mine ? 'flex-row-reverse self-end' : ''}`}>
      <span aria-hidden="true" className="shrink-0">
        {author ? <UserAvatar user={author} size="sm" showName={false} /> : <span className="block size-6 rounded-full bg-surface-2" />}
      </span>
      <div className={`min-w-0 rounded-lg px-3 py-2 ${mine ? 'bg-primary/15' : 'bg-surface-2'}`}>
        <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-xs text-muted">
          {author ? (
            <a href={profilePath('user', author._id)} className="font-semibold">
              {name}
            </a>
          ) : (
            <span className="font-semibold text-fg">{name}</span>
          )}
          {badge}
          <time dateTime={createdAt}>{chatTime(createdAt)}</time>
        </p>
        <p className="whitespace-pre-wrap break-words text-sm">{message}</p>
      </div>
    </li>
  );
}
