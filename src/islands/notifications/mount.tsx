import { createRoot, type Root } from 'react-dom/client';
import Bell from './Bell.tsx';

let root: Root | undefined;

/**
 * The bell in the layout (SPEC §2 Notification bell), drawn by the navigation's script (nav.ts)
 * once someone is signed in: guests never download React for it. Another user signing in gets a
 * fresh bell; `null` takes it away.
 */
export function showBell(container: HTMLElement, userId: string | null): void {
  if (!userId) {
    root?.unmount();
    root = undefined;
    return;
  }
  root ??= createRoot(container);
  root.render(<Bell key={userId} />);
}
