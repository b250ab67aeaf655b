import { useCallback, useEffect, useRef, useState } from 'react';
import { ChatComposer } from '../../components/chat/ChatComposer.tsx';
import { ChatLog } from '../../components/chat/ChatLog.tsx';
import { ChatMessageItem } from '../../components/chat/ChatMessageItem.tsx';
import { Notice } from '../../components/Notice.tsx';
import { getMatchChat, sendMatchChatMessage, type MatchChatMessage } from '../../lib/api/match-chat.ts';
import { mergeMessages } from '../../lib/domain/chat.ts';
import { t } from '../../lib/i18n/index.ts';
import { watchUser } from '../../lib/live/user-events.ts';
import { api } from '../../lib/stores/api.ts';
import { notInRoom } from './refresh.ts';


interface Props {
  matchId: string;
  sides: { a: string; b: string };
  /** The signed-in reader: their own messages sit on the right. */
  userId: string;
}

/**
 * The match's chat: the history, then a read of what came after the newest message held whenever
 * the reader's own event stream says this match's chat got one (`matchChat`), when the stream
 * reconnects, and every few seconds while it is down (its poll, lib/live/events.ts). Each read sends
 * the last ETag, so one that finds nothing costs a bodiless 304. Text is shown as text.
 */
export default function MatchChatPanel({ matchId, sides, userId }: Props) {
  const [messages, setMessages] = useState<MatchChatMessage[]>([]);
  const [state, setState] = useState<'loading' | 'ready' | 'away'>('loading');
  const [loadError, setLoadError] = useState('');
  // Where the reads are: the newest message the server has given, and the ETag for that query.
  const cursor = useRef<{ after: string | null; etag: string | null }>({ after: null, etag: null });
  const reading = useRef({ busy: false, again: false });

  const read = useCallback(async () => {
    // One read at a time; a nudge meanwhile reads once more after it, so no message waits for the next one.
    const turn = reading.current;
    if (turn.busy) {
      turn.again = true;
      return;
    }
    turn.busy = true;
    try {
      do {
        turn.again = false;
        const { after, etag } = cursor.current;
        const page = await getMatchChat(api, matchId, { after, etag });
        const newest = page.messages.at(-1)?._id ?? after;
        cursor.current = { after: newest, etag: newest === after ? page.etag : null };
        if (page.changed) setMessages((held) => mergeMessages(held, page.messages));
        setLoadError('');
        setState('ready');
      } while (turn.again);
    } catch (error) {
      if (notInRoom(error)) setState('away');
      else setLoadError(t('chat.historyError'));
    } finally {
      turn.busy = false;
    }
  }, [matchId]);

  useEffect(() => {
    void read();
    return watchUser(
      (event) => {
        if (event.kind === 'matchChat' ? event.matchId === matchId : event.kind === 'poll' || event.kind === 'resync') void read();
      },
      { kinds: ['matchChat'] },
    );
  }, [read, matchId]);

  async function send(message: string) {
    const sent = await sendMatchChatMessage(api, matchId, { message });
    // The read's cursor stays put: messages others sent meanwhile still arrive, ours is not doubled.
    setMessages((held) => mergeMessages(held, [sent]));
  }

  if (state === 'away') return null;
  return (
    <section aria-labelledby="match-chat-title" className="card flex min-h-0 flex-col gap-3">
      <h2 id="match-chat-title" className="text-lg font-bold">
        {t('matchChat.title')}
      </h2>
      <ChatLog label={t('matchChat.log')} messages={messages} newestIsMine={messages.at(-1)?.userId?._id === userId} className="h-72 p-2 sm:h-80 sm:p-3">
        {state === 'ready' && messages.length === 0 && <li className="m-auto text-center text-sm text-muted">{t('matchChat.empty')}</li>}
        {state === 'loading' && !loadError && <li className="m-auto text-sm text-muted">{t('team.loading')}</li>}
        {messages.map((m) => (
          <ChatMessageItem
            key={m._id}
            author={m.userId}
            createdAt={m.createdAt}
            message={m.message}
            mine={m.userId?._id === userId}
            badge={
              m.as === 'organiser' ? (
                <span className="rounded-full bg-accent px-2 py-0.5 font-semibold text-bg">{t('matchChat.organiser')}</span>
              ) : (
                <span className="max-w-[12rem] truncate rounded-full border border-line px-2 py-0.5">{sides[m.as]}</span>
              )
            }
          />
        ))}
      </ChatLog>
      {loadError && <Notice tone="error">{loadError}</Notice>}
      <ChatComposer id={`match-chat-input-${matchId}`} label={t('matchChat.inputLabel')} placeholder={t('matchChat.placeholder')} send={send} />
    </section>
  );
}
