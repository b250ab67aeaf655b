import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { chatReadBegins, forgetChat, forgetChats, heldNewest, holdNewest } from '../../src/server/services/teams/held-chats.ts';

const TEAM = 'aaaaaaaa-0000-4000-8000-000000000001';
const OTHER = 'aaaaaaaa-0000-4000-8000-000000000002';

beforeEach(() => forgetChats());

describe('held chats', () => {
  it('holds a chat’s newest message by team, whatever the case of its id', () => {
    expect(heldNewest(TEAM)).toBeUndefined();
    holdNewest(TEAM.toUpperCase(), 'm1', chatReadBegins());
    expect(heldNewest(TEAM)).toBe('m1');
    holdNewest(TEAM, 'm2', chatReadBegins());
    expect(heldNewest(TEAM.toUpperCase())).toBe('m2');
    expect(heldNewest(OTHER)).toBeUndefined();
  });

  it('does not hold what a read found if a message was posted to that chat while it read, and holds other chats’', () => {
    const began = chatReadBegins();
    forgetChat(TEAM);
    holdNewest(TEAM, 'before the message', began);
    holdNewest(OTHER, 'o1', began);
    expect(heldNewest(TEAM)).toBeUndefined();
    expect(heldNewest(OTHER)).toBe('o1');
    // A read that began after the message holds.
    holdNewest(TEAM, 'the message', chatReadBegins());
    expect(heldNewest(TEAM)).toBe('the message');
  });

  it('forgets a chat a message was posted to, and every chat when told to', () => {
    holdNewest(TEAM, 'm1', chatReadBegins());
    holdNewest(OTHER, 'o1', chatReadBegins());
    forgetChat(TEAM.toUpperCase());
    expect(heldNewest(TEAM)).toBeUndefined();
    expect(heldNewest(OTHER)).toBe('o1');
    const began = chatReadBegins();
    forgetChats();
    expect(heldNewest(OTHER)).toBeUndefined();
    holdNewest(OTHER, 'o0', began);
    expect(heldNewest(OTHER)).toBeUndefined();
  });

  it('still refuses a read that began before a forgetting it no longer names, past its bound', () => {
    const began = chatReadBegins();
    forgetChat(TEAM);
    // Ten thousand other chats forgotten since: TEAM's own forgetting is no longer remembered by name.
    for (let i = 0; i < 10_000; i++) forgetChat(`team-${i}`);
    holdNewest(TEAM, 'stale', began);
    expect(heldNewest(TEAM)).toBeUndefined();
  });

  it('never holds a message older than the chat’s newest, whatever the reads and posts interleave', () => {
    const teams = ['t1', 't2', 't3'];
    type Step = { kind: 'begin'; team: number } | { kind: 'post'; team: number } | { kind: 'finish'; read: number };
    const step = fc.oneof(
      fc.record({ kind: fc.constant('begin' as const), team: fc.nat(2) }),
      fc.record({ kind: fc.constant('post' as const), team: fc.nat(2) }),
      fc.record({ kind: fc.constant('finish' as const), read: fc.nat(20) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps: Step[]) => {
        forgetChats();
        // The database: each team's newest message, as a number that a post moves on.
        const newest = [0, 0, 0];
        const reads: { team: number; saw: number; began: number }[] = [];
        for (const s of steps) {
          if (s.kind === 'begin') reads.push({ team: s.team, saw: newest[s.team]!, began: chatReadBegins() });
          else if (s.kind === 'post') {
            // The message commits, then the serving thread forgets the chat.
            newest[s.team]! += 1;
            forgetChat(teams[s.team]!);
          } else if (reads.length > 0) {
            const [read] = reads.splice(s.read % reads.length, 1);
            holdNewest(teams[read!.team]!, String(read!.saw), read!.began);
          }
          teams.forEach((team, i) => {
            const held = heldNewest(team);
            if (held !== undefined) expect(held).toBe(String(newest[i]));
          });
        }
      }),
    );
  });
});
