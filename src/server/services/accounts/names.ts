import { and, asc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { nameSkeletons } from '../../../lib/domain/names.ts';
import type { Tx } from '../../db/client.ts';
import { organisations, teams, users } from '../../db/schema/index.ts';
import { constraintOf, isUniqueViolation } from '../db-errors.ts';

/** The columns a name's skeletons are stored in (users and teams alike). */
export function skeletonColumns(name: string): { nameSkeleton: string; nameSkeletonUpper: string } {
  const { lower, upper } = nameSkeletons(name);
  return { nameSkeleton: lower, nameSkeletonUpper: upper };
}

/** Keys under which a name is taken: itself in any case, and each of its skeletons (seed.ts marks names used with them). */
export function nameKeys(name: string): string[] {
  const { lower, upper } = nameSkeletons(name);
  return [`name:${name.toLowerCase()}`, `lower:${lower}`, `upper:${upper}`];
}

type Table = typeof users | typeof teams | typeof organisations;

function sameSkeleton(table: Table, name: string): SQL {
  const { lower, upper } = nameSkeletons(name);
  return or(eq(table.nameSkeleton, lower), eq(table.nameSkeletonUpper, upper))!;
}

/** Whether another account's username looks like `username` (TR39 skeleton, either case). */
export async function usernameLooksTaken(db: Tx, username: string, exceptUserId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId ? and(sameSkeleton(users, username), ne(users.id, exceptUserId)) : sameSkeleton(users, username))
    .limit(1);
  return Boolean(row);
}

/** Whether a team's name looks like `name`. */
export async function teamNameLooksTaken(db: Tx, name: string): Promise<boolean> {
  const [row] = await db.select({ id: teams.id }).from(teams).where(sameSkeleton(teams, name)).limit(1);
  return Boolean(row);
}

/** Whether an organisation's name looks like `name` (another's than `exceptId`). */
export async function organisationNameLooksTaken(db: Tx, name: string, exceptId?: string): Promise<boolean> {
  const similar = sameSkeleton(organisations, name);
  const [row] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(exceptId ? and(similar, ne(organisations.id, exceptId)) : similar)
    .limit(1);
  return Boolean(row);
}

/** A skeleton index refused the row: a look-alike name was taken in the meantime. */
export const isLookAlikeViolation = (error: unknown): boolean => isUniqueViolation(error) && /name_skeleton/.test(constraintOf(error) ?? '');

const CHUNK = 500;

/**
 * Gives every user and team without skeletons theirs on start-up: the rows made before the
 * columns came, and any written by code that did not set them. Oldest first: a name whose skeleton
 * an earlier one already has keeps its name and goes without that skeleton (NULL, which the unique
 * index allows), so the older name keeps it. Not in a transaction (a clash with a name taken at the
 * same moment refuses only its own row); safe to run on every start.
 */
export async function backfillNameSkeletons(db: Tx): Promise<{ filled: number; grandfathered: number }> {
  let filled = 0;
  let grandfathered = 0;
  for (const [table, nameColumn] of [
    [users, users.username],
    [teams, teams.name],
  ] as const) {
    const rows = await db
      .select({ id: table.id, name: nameColumn, nameSkeleton: table.nameSkeleton, nameSkeletonUpper: table.nameSkeletonUpper })
      .from(table)
      .where(or(isNull(table.nameSkeleton), isNull(table.nameSkeletonUpper)))
      .orderBy(asc(table.createdAt), asc(table.id));
    if (rows.length === 0) continue;
    const wanted = new Map(rows.map((row) => [row.id, skeletonColumns(row.name)]));
    const short = new Set<string>();
    const set = new Set<string>();
    for (const key of ['nameSkeleton', 'nameSkeletonUpper'] as const) {
      const missing = rows.filter((row) => row[key] === null);
      // Skeletons other rows already have, then the missing ones given out oldest first.
      const used = new Set<string>();
      for (let i = 0; i < missing.length; i += CHUNK) {
        const values = missing.slice(i, i + CHUNK).map((row) => wanted.get(row.id)![key]);
        const taken = await db.select({ value: table[key] }).from(table).where(inArray(table[key], values));
        for (const { value } of taken) if (value !== null) used.add(value);
      }
      const given: { id: string; value: string }[] = [];
      for (const row of missing) {
        const value = wanted.get(row.id)![key];
        if (used.has(value)) {
          short.add(row.id);
          continue;
        }
        used.add(value);
        given.push({ id: row.id, value });
      }
      const column = sql.identifier(key === 'nameSkeleton' ? 'name_skeleton' : 'name_skeleton_upper');
      for (let i = 0; i < given.length; i += CHUNK) {
        const part = given.slice(i, i + CHUNK);
        const setAll = sql`update ${table} set ${column} = v.value from (values ${sql.join(
          part.map((g) => sql`(${g.id}::uuid, ${g.value})`),
          sql`, `,
        )}) as v(id, value) where ${table.id} = v.id and ${table[key]} is null`;
        try {
          await db.execute(setAll);
          for (const g of part) set.add(g.id);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // A look-alike taken while this ran: row by row, and the one that clashes goes without.
          for (const g of part) {
            try {
              await db.update(table).set({ [key]: g.value }).where(and(eq(table.id, g.id), isNull(table[key])));
              set.add(g.id);
            } catch (rowError) {
              if (!isUniqueViolation(rowError)) throw rowError;
              short.add(g.id);
            }
          }
        }
      }
    }
    filled += set.size;
    grandfathered += short.size;
  }
  return { filled, grandfathered };
}
