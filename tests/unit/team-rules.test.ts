import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasControlCharacters, hasRoomForMember, isCaptain, TEAM_MAX_MEMBERS, teamInitials } from '../../src/lib/domain/team.ts';

describe('team size', () => {
  it('lets a seventh player in and refuses an eighth', () => {
    expect(TEAM_MAX_MEMBERS).toBe(7);
    expect(hasRoomForMember(1)).toBe(true);
    expect(hasRoomForMember(6)).toBe(true);
    expect(hasRoomForMember(7)).toBe(false);
    expect(hasRoomForMember(9)).toBe(false);
  });
});

describe('captain', () => {
  const members = [{ _id: 'a' }, { _id: 'b' }];
  it('is the captain field, as an object or an id', () => {
    expect(isCaptain({ captain: { _id: 'b' }, members }, 'b')).toBe(true);
    expect(isCaptain({ captain: 'b', members }, 'b')).toBe(true);
    expect(isCaptain({ captain: 'b', members }, 'a')).toBe(false);
  });
  it('is the first member when the team names no captain', () => {
    expect(isCaptain({ members }, 'a')).toBe(true);
    expect(isCaptain({ captain: null, members: ['a', 'b'] }, 'a')).toBe(true);
    expect(isCaptain({ members }, 'b')).toBe(false);
  });
  it('is nobody for a guest or an empty team', () => {
    expect(isCaptain({ members }, null)).toBe(false);
    expect(isCaptain({ members: [] }, 'a')).toBe(false);
  });
});

describe('control characters', () => {
  it('finds NUL and other control characters but allows line breaks, tabs and any script', () => {
    expect(hasControlCharacters('a\u0000b')).toBe(true);
    expect(hasControlCharacters('bell\u0007')).toBe(true);
    expect(hasControlCharacters('line\nnext\ttab')).toBe(false);
    expect(hasControlCharacters('Київські Кіборги 🐺 <img src=x>')).toBe(false);
  });
});

describe('a team without a logo', () => {
  it('shows the first letters of two words, or the first two of one word, in capitals', () => {
    expect(teamInitials('Odesa Storm')).toBe('OS');
    expect(teamInitials('Alpha')).toBe('AL');
    expect(teamInitials('kyiv_cyborgs.ua')).toBe('KC');
    expect(teamInitials('  їжаки  ')).toBe('ЇЖ');
    expect(teamInitials('🐺 Вовки')).toBe('🐺В');
    expect(teamInitials('Кіберклуб «Львів»')).toBe('КЛ');
    expect(teamInitials('')).toBe('?');
  });

  it('never shows more than two letters, nor nothing, for any name', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const letters = [...teamInitials(name)];
        expect(letters.length).toBeGreaterThan(0);
        expect(letters.length).toBeLessThanOrEqual(2);
      }),
    );
  });
});
