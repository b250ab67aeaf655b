import { describe, expect, it } from 'vitest';
import { regionsAddress } from '../../src/components/live-regions.ts';

describe('the address of a page’s live regions', () => {
  it('names the event’s change, keeping the page’s own query, so every viewer of one event asks the same address', () => {
    const change = '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4';
    expect(regionsAddress('/tournaments/abc/live', { kind: 'match', change })).toBe(`/tournaments/abc/live?v=${change}`);
    expect(regionsAddress('/embed/tournaments/abc/live?lang=en&theme=light', { kind: 'stage', change })).toBe(`/embed/tournaments/abc/live?lang=en&theme=light&v=${change}`);
    // A page's query naming `v` already (a copied address) does not make a second one.
    expect(regionsAddress('/tournaments/abc/live?v=old', { kind: 'match', change })).toBe(`/tournaments/abc/live?v=${change}`);
  });

  it('gives a poll, a reconnection or the reader’s own action an address of its own', () => {
    expect(regionsAddress('/matches/m/live', { kind: 'poll' }, 1000)).toBe('/matches/m/live?v=poll-1000');
    expect(regionsAddress('/matches/m/live', { kind: 'resync' }, 2000)).toBe('/matches/m/live?v=resync-2000');
  });
});
