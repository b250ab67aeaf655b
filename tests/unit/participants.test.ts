import { readdirSync, readFileSync } from 'node:fs';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { LIVE_APPLICATION_STATUSES } from '../../src/lib/domain/application-rules.ts';
import { applicantName, approvedOf, participantIdsOf, participantTypeOf } from '../../src/lib/domain/participant.ts';
import { applications, isLiveStatus } from '../../src/server/db/schema/index.ts';

const user = (id: string) => ({ _id: id, username: `player ${id}` });
const solo = (id: string, status: string) => ({ status, user: user(id), team: null });
const team = (id: string, status: string) => ({ status, user: user(`captain of ${id}`), team: { _id: id, name: `team ${id}` } });

describe('participants of a tournament', () => {
  const list = [solo('a', 'approved'), team('t1', 'approved'), solo('b', 'pending'), solo('c', 'rejected'), team('t2', 'pending'), solo('d', 'approved')];

  it('are the approved applications of the tournament’s type, in the order given', () => {
    expect(approvedOf(list, true)).toEqual([list[0], list[5]]);
    expect(approvedOf(list, false)).toEqual([list[1]]);
    expect(participantIdsOf(list, true)).toEqual(['a', 'd']);
    expect(participantIdsOf(list, false)).toEqual(['t1']);
  });

  it('are players in solo tournaments and teams in team ones, named as their application is', () => {
    expect([participantTypeOf(true), participantTypeOf(false)]).toEqual(['user', 'team']);
    expect([applicantName(list[0]!), applicantName(list[1]!)]).toEqual(['player a', 'team t1']);
  });

  it('count as «already applied» in the database as the domain says: the last migration of each one-live-application index uses isLiveStatus’s text', () => {
    const { sql: live, params } = new PgDialect().sqlToQuery(isLiveStatus(applications.status));
    expect(params).toEqual([]);
    expect(live).toBe(`"applications"."status" in (${LIVE_APPLICATION_STATUSES.map((s) => `'${s}'`).join(', ')})`);
    const migrations = readdirSync('drizzle')
      .filter((name) => name.endsWith('.sql'))
      .sort()
      .map((name) => readFileSync(`drizzle/${name}`, 'utf8'));
    for (const index of ['applications_live_solo_idx', 'applications_live_team_idx']) {
      const created = migrations.flatMap((text) => text.split('--> statement-breakpoint').filter((s) => s.includes(`CREATE UNIQUE INDEX "${index}"`)));
      expect(created.at(-1)).toContain(live);
    }
  });
});
