import { describe, expect, it } from 'vitest';
import { canOrganise } from '../../src/lib/domain/organisers.ts';

const A = '0b7e3c1a-5f2d-4c6e-9a8b-1d2e3f4a5b6c';
const B = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';

describe('canOrganise (decision 016)', () => {
  it('is true for an admin on every tournament', () => {
    expect(canOrganise({ role: 'admin' }, A)).toBe(true);
    expect(canOrganise({ role: 'admin', staffOf: [] }, B)).toBe(true);
  });

  it('is true for staff on their own tournaments only', () => {
    expect(canOrganise({ role: 'user', staffOf: [A] }, A)).toBe(true);
    expect(canOrganise({ role: 'user', staffOf: [A] }, B)).toBe(false);
  });

  it('is false for a guest, and for a user whose answer carries no staffOf (a fresh sign-in)', () => {
    expect(canOrganise(null, A)).toBe(false);
    expect(canOrganise(undefined, A)).toBe(false);
    expect(canOrganise({ role: 'user' }, A)).toBe(false);
  });
});
