import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { createBracket, setResult, type Bracket } from '../../src/lib/domain/bracket.ts';
import { bracketOf } from '../../src/lib/domain/stage/legacy.ts';
import { singleEliminationPlan } from '../../src/lib/domain/stage/plan.ts';
import { resolveStage, type EnteredResult } from '../../src/lib/domain/stage/resolve.ts';

/*
 * Upgrading (issue 21): a database at migration 0005 with drawn brackets is migrated to 0006, and
 * every bracket becomes its tournament's first stage with nothing lost — the engine reading the
 * stage back gives the very bracket the tournament had. Runs on embedded PGlite only: it builds
 * its own databases at two points of the migration history.
 */

const folder = join(import.meta.dirname, '../../drizzle');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The migrations folder cut after `last`, as a database at that point in history would have seen it. */
function historyUpTo(last: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  dirs.push(dir);
  cpSync(folder, dir, { recursive: true });
  const journalPath = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((e) => e.tag === last);
  journal.entries = journal.entries.slice(0, index + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);

describe('migration 0006', () => {
  it('moves every drawn bracket into a single-elimination stage, losing nothing', async () => {
    const client = new PGlite();
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: historyUpTo('0005_live_applications_by_status_list') });

    // Three tournaments: a played bracket of 5 (byes, a comment), a fresh one of 4 drawn standard, and none.
    const five = ids(5);
    let played = createBracket(five);
    // Every first-round match that is played goes to its b side, with a comment; then the first later match that is ready.
    played[0]!.matches.forEach((m, i) => {
      if (m.a && m.b) played = setResult(played, 0, i, m.b, 'овертайм');
    });
    const next = played[1]!.matches.findIndex((m) => m.a && m.b);
    played = setResult(played, 1, next, played[1]!.matches[next]!.a!);
    const fresh = createBracket(ids(4), 'standard');
    await client.exec(`insert into games (id, name) values ('10000000-0000-4000-8000-000000000001', 'CS2')`);
    const insert = (id: string, bracket: Bracket, version: number) =>
      client.query(
        `insert into tournaments (id, title, date, game_id, bracket, bracket_version, status) values ($1, 'Кубок', now(), '10000000-0000-4000-8000-000000000001', $2, $3, 'started')`,
        [id, JSON.stringify(bracket), version],
      );
    await insert('20000000-0000-4000-8000-000000000001', played, 3);
    await insert('20000000-0000-4000-8000-000000000002', fresh, 1);
    await insert('20000000-0000-4000-8000-000000000003', [], 0);

    await migrate(db, { migrationsFolder: folder });

    const stages = await client.query<{ id: string; tournament_id: string; number: number; format: string; seeds: (string | null)[] }>(
      `select id, tournament_id, number, format, seeds from stages order by tournament_id`,
    );
    expect(stages.rows.map((s) => [s.tournament_id, s.number, s.format])).toEqual([
      ['20000000-0000-4000-8000-000000000001', 1, 'single_elimination'],
      ['20000000-0000-4000-8000-000000000002', 1, 'single_elimination'],
    ]);
    for (const [stage, bracket] of [
      [stages.rows[0]!, played],
      [stages.rows[1]!, fresh],
    ] as const) {
      expect(stage.seeds).toEqual(bracket[0]!.matches.flatMap((m) => [m.a, m.b]));
      const rows = await client.query<{
        round: number;
        position: number;
        participant_a: string | null;
        participant_b: string | null;
        winner: string | null;
        comment: string;
        status: string;
      }>(`select round, position, participant_a, participant_b, winner, comment, status from stage_matches where stage_id = $1 order by round, position`, [
        stage.id,
      ]);
      // The engine reads the stage back from its seeds and the results stored in its rows.
      const plan = singleEliminationPlan(stage.seeds.length);
      const entered = new Map<number, EnteredResult>();
      rows.rows.forEach((row, index) => {
        if (row.winner && row.participant_a && row.participant_b) {
          entered.set(index, {
            a: row.participant_a,
            b: row.participant_b,
            result: { scoreA: null, scoreB: null, games: [], forfeit: null, winner: row.winner === row.participant_a ? 'a' : 'b' },
          });
        }
      });
      const readBack = bracketOf(
        resolveStage(plan, stage.seeds, entered),
        rows.rows.map((r) => r.comment),
      );
      expect(readBack).toEqual(bracket);
      expect(rows.rows.filter((r) => r.status === 'completed').length).toBe(bracket.flatMap((r) => r.matches).filter((m) => m.winner).length);
    }
    await client.close();
  });
});
