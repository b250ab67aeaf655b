import { describe, expect, it } from 'vitest';
import { versionedCopy } from '../../src/lib/live/versioned-copy.ts';

/** A server's copy at `version`, with the reads it was asked. */
function server() {
  const state = { version: 1 };
  const reads: { etag: string | undefined; fresh: boolean }[] = [];
  return {
    state,
    reads,
    read: async (etag: string | undefined, fresh: boolean) => {
      reads.push({ etag, fresh });
      const tag = `"v${state.version}"`;
      return etag === tag ? { state: null, etag: tag } : { state: { version: state.version }, etag: tag };
    },
  };
}

describe('a versioned copy (the bracket and the stages in the organisers’ modals)', () => {
  it('reads with the ETag it holds, and announces another organiser’s change, not a read that found nothing new', async () => {
    const fake = server();
    const copy = versionedCopy({ tournamentId: 't', read: fake.read, changedByOther: () => 'змінив інший' });
    await copy.refresh(false);
    expect(copy.$state.get()).toMatchObject({ status: 'ready', data: { version: 1 }, notice: null });
    await copy.refresh(true);
    expect(fake.reads.at(-1)).toEqual({ etag: '"v1"', fresh: false });
    expect(copy.$state.get().notice).toBeNull();
    fake.state.version = 2;
    await copy.refresh(true, true);
    expect(fake.reads.at(-1)).toEqual({ etag: '"v1"', fresh: true });
    expect(copy.$state.get()).toMatchObject({ data: { version: 2 }, notice: { tone: 'info', text: 'змінив інший' } });
  });

  it('drops a read that lands during a change of ours, and with readAfterChange reads again after it without announcing it', async () => {
    const fake = server();
    const copy = versionedCopy({ tournamentId: 't', read: fake.read, changedByOther: () => 'змінив інший', readAfterChange: true });
    await copy.refresh(false);
    await copy.change(async () => {
      expect(copy.$state.get().busy).toBe(true);
      fake.state.version = 2;
      // A poll during our change reads nothing.
      await copy.refresh(true);
    });
    expect(copy.$state.get()).toMatchObject({ busy: false, data: { version: 2 }, notice: null });
    expect(fake.reads).toHaveLength(2);
  });

  it('without readAfterChange leaves the copy as the change adopted it', async () => {
    const fake = server();
    const copy = versionedCopy({ tournamentId: 't', read: fake.read, changedByOther: () => 'змінив інший' });
    await copy.refresh(false);
    await copy.change(async () => copy.adopt({ version: 5 }, { tone: 'success', text: 'збережено' }));
    expect(copy.$state.get()).toMatchObject({ data: { version: 5 }, notice: { text: 'збережено' } });
    expect(copy.server()).toEqual({ version: 5 });
    expect(fake.reads).toHaveLength(1);
  });
});
