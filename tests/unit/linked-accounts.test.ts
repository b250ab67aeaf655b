import { describe, expect, it } from 'vitest';
import { applyRefusal } from '../../src/lib/domain/application-rules.ts';
import { steamGame, steamProfileUrl } from '../../src/lib/domain/linked-accounts.ts';
import { usernameCandidates } from '../../src/server/services/accounts/linked-accounts.ts';

describe('which games may require Steam (issue 60)', () => {
  it('CS2 and Dota 2 in the spellings games are named with, nothing else', () => {
    for (const name of ['CS2', 'Counter-Strike 2', 'counter strike', 'CS:GO', 'Dota 2', 'DOTA2']) expect(steamGame(name), name).toBe(true);
    for (const name of ['Valorant', 'League of Legends', 'PUBG Mobile', 'Dota Underlords', 'Шахи']) expect(steamGame(name), name).toBe(false);
  });

  it('links a SteamID64 to its public profile', () => {
    expect(steamProfileUrl('76561197960435530')).toBe('https://steamcommunity.com/profiles/76561197960435530');
  });
});

describe('an application to a tournament that requires Steam', () => {
  const open = { status: 'pending', soloOnly: true, bracketDrawn: false };
  it('is refused to a solo player without it, and to a team with a player without it', () => {
    expect(applyRefusal({ tournament: open, asTeam: false, alreadyApplied: false, withoutSteam: 1 })).toBe('steamRequired');
    expect(applyRefusal({ tournament: { ...open, soloOnly: false }, asTeam: true, team: { isCaptain: true, members: 5 }, alreadyApplied: false, withoutSteam: 2 })).toBe('teamSteamRequired');
    expect(applyRefusal({ tournament: open, asTeam: false, alreadyApplied: false, withoutSteam: 0 })).toBeNull();
  });

  it('says the other rules first: one who applied already is not told to link Steam', () => {
    expect(applyRefusal({ tournament: open, asTeam: false, alreadyApplied: true, withoutSteam: 1 })).toBe('alreadyApplied');
  });
});

describe('names for accounts a provider makes', () => {
  it('keep the provider’s name where it is a valid nickname, then number it', () => {
    const [first, second] = usernameCandidates('Олена Вовк', 'discord_000001');
    expect(first).toBe('Олена_Вовк');
    expect(second).toBe('Олена_Вовк_2');
  });

  it('fall back to the provider and id when the name is too short or only symbols, and drop invisible characters', () => {
    expect(usernameCandidates('☆', 'steam_435530')[0]).toBe('steam_435530');
    // An invisible character never reaches a name: it is a separator like any other symbol.
    expect(usernameCandidates('a\u200bb', 'steam_435530')[0]).toBe('a_b');
    for (const name of usernameCandidates('x'.repeat(80), 'steam_1')) expect([...name].length).toBeLessThanOrEqual(32);
  });
});
