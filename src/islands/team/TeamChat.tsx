import { useCallback, useEffect, useLayoutEffect, useRef, useState, type SubmitEvent } from 'react';
import { useLengthLimit } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { getChat, sendChatMessage, type ChatMessage } from '../../lib/api/chat.ts';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { CHAT_MESSAGE_MAX, chatMessageProblem, chatTime } from '../../lib/domain/chat.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { profilePath } from '../../lib/domain/participant.ts';
import { onTeamTick } from './store.ts';

/** Messages in time order; a message already held is not doubled. */
function merge(held: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return held;
  const byId = new Map(held.map((m) => [m._id, m]));
  for (const m of incoming) byId.set(m._id, m);
  return [...byId.values()].sort((a, b) => (a.createdAt === b.createdAt ? (a._id < b._id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
}

/**
 * The team chat: history, then a poll on every tick of the team tab's clock (6 s, store.ts) for
 * messages after the newest one held. The poll sends the last ETag, so a quiet chat costs a
 * bodiless 304. Text is shown as text.
 */
export function TeamChat({ teamId, teamName, userId }: { teamId: string; teamName: string; userId: string }) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState('');
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState('');
  // Cursor of the poll: the newest message the server has given us, and the ETag for that query.
  const cursor = useRef<{ after: string | null; etag: string | null }>({ after: null, etag: null });
  const polling = useRef(false);
  const log = useRef<HTMLOListElement>(null);
  const stickToBottom = useRef(true);
  const input = useRef<HTMLInputElement>(null);

  const poll = useCallback(async () => {
    if (polling.current) return;
    polling.current = true;
    const { after, etag } = cursor.current;
    try {
      const page = await getChat(api, teamId, { after, etag });
      const newest = page.messages.at(-1)?._id ?? after;
      cursor.current = { after: newest, etag: newest === after ? page.etag : null };
      if (page.changed) setMessages((held) => merge(held, page.messages));
      setLoadError('');
      setLoaded(true);
    } catch {
      setLoadError(t('chat.historyError'));
    } finally {
      polling.current = false;
    }
  }, [teamId]);

  // The first read now, then on the team tab's clock (store.ts), which also refreshes the roster.
  useEffect(() => {
    void poll();
    return onTeamTick(teamId, () => void poll());
  }, [poll, teamId]);

  // Follow new messages unless the reader has scrolled up to read older ones.
  useLayoutEffect(() => {
    const element = log.current;
    if (element && stickToBottom.current) element.scrollTop = element.scrollHeight;
  }, [messages]);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (chatMessageProblem(draft) || sending) return;
    setSending(true);
    setSendError('');
    try {
      const sent = await sendChatMessage(api, teamId, { message: draft.trim() });
      // The poll's cursor stays put: messages others sent meanwhile still arrive, ours is not doubled.
      stickToBottom.current = true;
      setMessages((held) => merge(held, [sent]));
      setDraft('');
    } catch (caught) {
      setSendError(isNetworkFailure(caught) ? t('chat.connectionError') : errorMessage(caught, t('chat.sendError')));
    } finally {
      setSending(false);
    }
  }

  const titleId = `chat-title-${teamId}`;
  const inputId = `chat-input-${teamId}`;
  const limit = useLengthLimit({ ref: input, label: t('chat.inputLabel'), id: inputId, limit: CHAT_MESSAGE_MAX, value: draft });
  return (
    <section aria-labelledby={titleId} className="flex min-h-0 flex-col gap-3">
      <h4 id={titleId} className="font-semibold">
        {t('chat.title')}
      </h4>
      <ol
        ref={log}
        role="log"
        aria-live="polite"
        aria-label={t('chat.log', { team: teamName })}
        tabIndex={0}
        onScroll={(event) => {
          const el = event.currentTarget;
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
        className="flex h-80 flex-col gap-3 overflow-y-auto rounded-lg border border-line bg-bg/40 p-3"
      >
        {loaded && messages.length === 0 && <li className="m-auto text-center text-sm text-muted">{t('chat.empty')}</li>}
        {!loaded && !loadError && <li className="m-auto text-sm text-muted">{t('team.loading')}</li>}
        {messages.map((m) => {
          const mine = m.userId?._id === userId;
          const author = m.userId?.username ?? t('chat.deletedAuthor');
          return (
            <li key={m._id} className={`flex max-w-[85%] gap-2 ${mine ? 'flex-row-reverse self-end' : ''}`}>
              <span aria-hidden="true" className="shrink-0">
                {m.userId ? <UserAvatar user={m.userId} size="sm" showName={false} /> : <span className="block size-6 rounded-full bg-surface-2" />}
              </span>
              <div className={`min-w-0 rounded-lg px-3 py-2 ${mine ? 'bg-primary/15' : 'bg-surface-2'}`}>
                <p className="flex items-baseline gap-2 text-xs text-muted">
                  {m.userId ? (
                    <a href={profilePath('user', m.userId._id)} className="font-semibold">
                      {author}
                    </a>
                  ) : (
                    <span className="font-semibold text-fg">{author}</span>
                  )}
                  <time dateTime={m.createdAt}>{chatTime(m.createdAt)}</time>
                </p>
                <p className="whitespace-pre-wrap break-words text-sm">{m.message}</p>
              </div>
            </li>
          );
        })}
      </ol>
      {loadError && <Notice tone="error">{loadError}</Notice>}
      <form onSubmit={onSubmit} className="flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          {t('chat.inputLabel')}
        </label>
        <span className="relative flex min-w-0 flex-1">
          <input
            ref={input}
            id={inputId}
            className="field min-w-0 pr-20 aria-[invalid=true]:border-danger"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder={t('chat.placeholder')}
            autoComplete="off"
            {...limit.described}
          />
          <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center">{limit.counter}</span>
        </span>
        {limit.announcement}
        <button type="submit" className="btn-primary" disabled={chatMessageProblem(draft) !== null || sending}>
          {t('chat.send')}
        </button>
      </form>
      {sendError && <Notice tone="error">{sendError}</Notice>}
    </section>
  );
}
