import { useRef, useState, type SubmitEvent } from 'react';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { CHAT_MESSAGE_MAX, chatMessageProblem } from '../../lib/domain/chat.ts';
import { t } from '../../lib/i18n/index.ts';
import { useLengthLimit } from '../Field.tsx';
import { Notice } from '../Notice.tsx';

interface Props {
  /** The input's id, unique on the page. */
  id: string;
  label: string;
  placeholder: string;
  /** Sends the message (trimmed); throws the API's refusal, which is then shown. */
  send: (message: string) => Promise<void>;
}

/**
 * A chat's input line: the field with its length counter (`CHAT_MESSAGE_MAX`), the send button
 * (off while the message could not be sent as typed), and the refusal of the last send. The draft is
 * cleared once the message is sent.
 */
export function ChatComposer({ id, label, placeholder, send }: Props) {
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState('');
  const input = useRef<HTMLInputElement>(null);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (chatMessageProblem(draft) || sending) return;
    setSending(true);
    setSendError('');
    try {
      await send(draft.trim());
      setDraft('');
    } catch (caught) {
      setSendError(isNetworkFailure(caught) ? t('chat.connectionError') : errorMessage(caught, t('chat.sendError')));
    } finally {
      setSending(false);
    }
  }

  const limit = useLengthLimit({ ref: input, label, id, limit: CHAT_MESSAGE_MAX, value: draft });
  return (
    <>
      <form onSubmit={onSubmit} className="flex gap-2">
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <span className="relative flex min-w-0 flex-1">
          <input
            ref={input}
            id={id}
            className={`field min-w-0 text-ellipsis aria-[invalid=true]:border-danger ${limit.near ? 'pr-20' : ''}`}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder={placeholder}
            autoComplete="off"
            {...limit.described}
          />
          <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center">{limit.counter}</span>
        </span>
        {limit.announcement}
        <button type="submit" className="btn-primary shrink-0" disabled={chatMessageProblem(draft) !== null || sending}>
          {t('chat.send')}
        </button>
      </form>
      {sendError && <Notice tone="error">{sendError}</Notice>}
    </>
  );
}
