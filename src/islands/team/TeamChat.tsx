import { useCallback, useEffect, useRef, useState } from 'react';
import { ChatComposer } from '../../components/chat/ChatComposer.tsx';
import { ChatLog } from '../../components/chat/ChatLog.tsx';
import { ChatMessageItem } from '../../components/chat/ChatMessageItem.tsx';
import { Notice } from '../../components/Notice.tsx';
import { getChat, sendChatMessage, type ChatMessage } from '../../lib/api/chat.ts';
import { mergeMessages } from '../../lib/domain/chat.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { onTeamTick } from './store.ts';

/**
 * The team chat: history, then a poll on every tick of the team tab's clock (6 s, store.ts) for
 * messages after the newest one held. The poll sends the last ETag, so a quiet chat costs a
 * bodiless 304. Text is shown as text.
 */
export function TeamChat({ teamId, teamName, userId }: { teamId: string; teamName: string; userId: string }) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState('');
  // Cursor of the poll: the newest message the server has given us, and the ETag for that query.
  const cursor = useRef<{ after: string | null; etag: string | null }>({ after: null, etag: null });
  const polling = useRef(false);

  const poll = useCallback(async () => {
    if (polling.current) return;
    polling.current = true;
    const { after, etag } = cursor.current;
    try {
      const page = await getChat(api, teamId, { after, etag });
      const newest = page.messages.at(-1)?._id ?? after;
      cursor.current = { after: newest, etag: newest === after ? page.etag : null };
      if (page.changed) setMessages((held) => mergeMessages(held, page.messages));
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

  async function send(message: string) {
    const sent = await sendChatMessage(api, teamId, { message });
    // The poll's cursor stays put: messages others sent meanwhile still arrive, ours is not doubled.
    setMessages((held) => mergeMessages(held, [sent]));
  }

  const titleId = `chat-title-${teamId}`;
  return (
    <section aria-labelledby={titleId} className="flex min-h-0 flex-col gap-3">
      <h4 id={titleId} className="font-semibold">
        {t('chat.title')}
      </h4>
      <ChatLog label={t('chat.log', { team: teamName })} messages={messages} newestIsMine={messages.at(-1)?.userId?._id === userId} className="h-80 p-3">
        {loaded && messages.length === 0 && <li className="m-auto text-center text-sm text-muted">{t('chat.empty')}</li>}
        {!loaded && !loadError && <li className="m-auto text-sm text-muted">{t('team.loading')}</li>}
        {messages.map((m) => (
          <ChatMessageItem key={m._id} author={m.userId} createdAt={m.createdAt} message={m.message} mine={m.userId?._id === userId} />
        ))}
      </ChatLog>
      {loadError && <Notice tone="error">{loadError}</Notice>}
      <ChatComposer id={`chat-input-${teamId}`} label={t('chat.inputLabel')} placeholder={t('chat.placeholder')} send={send} />
    </section>
  );
}
