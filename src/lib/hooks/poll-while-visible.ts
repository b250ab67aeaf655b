/** How often an open bracket or stages window asks for changes (SPEC §2: every 5 s). */
export const POLL_MS = 5000;

/**
 * Calls `refresh(true)` every `POLL_MS` while the tab is visible, and once when it becomes visible
 * again; a hidden tab asks for nothing. Returns the stop function. The first load (`refresh(false)`)
 * is the caller's, so it can say whether it announces changes.
 */
export function pollWhileVisible(refresh: (background: boolean) => void): () => void {
  const visible = () => typeof document === 'undefined' || document.visibilityState === 'visible';
  let timer: ReturnType<typeof setInterval> | undefined;
  const schedule = () => {
    clearInterval(timer);
    timer = visible() ? setInterval(() => refresh(true), POLL_MS) : undefined;
  };
  const onVisibility = () => {
    if (visible()) refresh(true);
    schedule();
  };
  schedule();
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibility);
  };
}
