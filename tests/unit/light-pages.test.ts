import { afterEach, describe, expect, it, vi } from 'vitest';
import { isCurrent, NAV_ITEMS } from '../../src/islands/nav/items.ts';
import interact, { storedKeys } from '../../src/lib/hooks/client-interact.ts';

describe('the navigation (issue 24: server HTML)', () => {
  it('marks home only on itself, the other sections on their pages and below', () => {
    expect(isCurrent('/', '/')).toBe(true);
    expect(isCurrent('/', '/news')).toBe(false);
    expect(isCurrent('/news', '/news')).toBe(true);
    expect(isCurrent('/news', '/news/abc')).toBe(true);
    expect(isCurrent('/news', '/newsletter')).toBe(false);
    expect(isCurrent('/team', '/teams/abc')).toBe(false);
  });

  it('lists every section once, the admin panel last and for admins only', () => {
    expect(NAV_ITEMS.map((item) => item.href)).toEqual(['/', '/tournaments', '/organisations', '/news', '/leaderboards', '/team', '/cabinet', '/admin']);
    expect(NAV_ITEMS.filter((item) => item.adminOnly).map((item) => item.href)).toEqual(['/admin']);
  });
});

describe('client:interact', () => {
  const storage = (values: Record<string, string>) => ({ getItem: (key: string) => values[key] ?? null });

  afterEach(() => vi.unstubAllGlobals());

  it('finds the named keys that hold something', () => {
    expect(storedKeys('token lb_tab', storage({ lb_tab: 'teams', token: '' }))).toEqual(['lb_tab']);
    expect(storedKeys(true, storage({ token: 'x' }))).toEqual([]);
    expect(storedKeys(' token ', { getItem: () => { throw new Error('refused'); } })).toEqual([]);
  });

  /** An island element and the directive's load, with the hydration it resolves to. */
  function island(value: unknown, stored: Record<string, string>) {
    vi.stubGlobal('localStorage', storage(stored));
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    const el = new EventTarget() as unknown as HTMLElement;
    const hydrate = vi.fn(async () => {});
    const load = vi.fn(async () => hydrate);
    interact(load, { name: 'Board', value: value as string }, el);
    return { el, load, hydrate, idle };
  }

  it('waits for the reader: nothing loads until the pointer, a touch, a focus or a key comes', async () => {
    const { el, load, hydrate, idle } = island(true, {});
    expect(idle).toHaveLength(0);
    expect(load).not.toHaveBeenCalled();
    el.dispatchEvent(new Event('focusin'));
    el.dispatchEvent(new Event('pointerover'));
    await vi.waitFor(() => expect(hydrate).toHaveBeenCalledTimes(1));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('hydrates at idle when a key it names is set (the server did not draw this reader’s view)', async () => {
    const { el, load, hydrate, idle } = island('token', { token: 'abc' });
    expect(idle).toHaveLength(1);
    idle[0]!();
    await vi.waitFor(() => expect(hydrate).toHaveBeenCalledTimes(1));
    el.dispatchEvent(new Event('pointerover'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('never hydrates for a guest when only a session would change it and nobody interacts', () => {
    const { load, idle } = island('token', {});
    expect(idle).toHaveLength(0);
    expect(load).not.toHaveBeenCalled();
  });
});
