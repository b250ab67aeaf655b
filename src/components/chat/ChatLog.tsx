import { useLayoutEffect, useRef, type ReactNode } from 'react';

interface Props {
  label: string;
  /** What the log shows: it scrolls to the newest whenever they change, unless the reader scrolled up. */
  messages: readonly unknown[];
  /** Whether the newest message is the reader's own: the log then shows it whatever the scroll. */
  newestIsMine: boolean;
  className: string;
  children: ReactNode;
}

/**
 * A chat's messages as a live log (`role="log"`, announced politely to screen readers) that keeps
 * to the newest message unless the reader has scrolled up to read older ones. The log wraps the
 * list rather than being it: a role on the <ol> would take its items' list away.
 */
export function ChatLog({ label, messages, newestIsMine, className, children }: Props) {
  const log = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    const element = log.current;
    if (element && (atBottom.current || newestIsMine)) element.scrollTop = element.scrollHeight;
  }, [messages, newestIsMine]);
  return (
    <div
      ref={log}
      role="log"
      aria-live="polite"
      aria-label={label}
      tabIndex={0}
      onScroll={(event) => {
        const el = event.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
      className={`overflow-y-auto rounded-lg border border-line bg-bg/40 ${className}`}
    >
      <ol className="flex min-h-full flex-col gap-3">{children}</ol>
    </div>
  );
}
