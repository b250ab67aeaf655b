import { describe, expect, it } from 'vitest';
import { addressNarrowedTo, narrowedTournament } from '../../src/islands/applications/applications-address.ts';

const ID = '3f2b8c1e-4a5d-4e6f-9a7b-0c1d2e3f4a5b';
const search = (query: string) => new URLSearchParams(query);

describe('the admin applications narrowed to one tournament by the address', () => {
  it('reads the tournament from ?tournament=<id>, beside other parameters', () => {
    expect(narrowedTournament(search(`tournament=${ID}`))).toBe(ID);
    expect(narrowedTournament(search(`section=applications&tournament=${ID.toUpperCase()}`))).toBe(ID.toUpperCase());
  });

  it('narrows nothing without one, or for a value that is not an id', () => {
    expect(narrowedTournament(search(''))).toBeUndefined();
    for (const value of ['', 'abc', `${ID} `, `${ID}x`, ID.slice(1), "1' or '1'='1"]) {
      expect(narrowedTournament(search(`tournament=${encodeURIComponent(value)}`)), value).toBeUndefined();
    }
  });

  it('writes the tournament into the address and takes it out again, keeping the rest', () => {
    expect(addressNarrowedTo('https://arena.example/admin-tournaments', ID)).toBe(`/admin-tournaments?tournament=${ID}`);
    expect(addressNarrowedTo('https://arena.example/admin?section=applications', ID)).toBe(`/admin?section=applications&tournament=${ID}`);
    // Another tournament replaces the first; none leaves the page's own address.
    expect(addressNarrowedTo(`https://arena.example/admin-tournaments?tournament=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, ID)).toBe(`/admin-tournaments?tournament=${ID}`);
    expect(addressNarrowedTo(`https://arena.example/admin-tournaments?tournament=${ID}`, null)).toBe('/admin-tournaments');
    expect(addressNarrowedTo(`https://arena.example/admin?section=applications&tournament=${ID}#list`, null)).toBe('/admin?section=applications#list');
  });
});
