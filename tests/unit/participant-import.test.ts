import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeImport, nameColumn, type ImportCandidate, type ImportFacts } from '../../src/lib/domain/participant-import.ts';
import { textCell } from '../../src/lib/domain/spreadsheet.ts';

/* The rules of a CSV import (issue 60, decision 040) and of a cell a spreadsheet shows as text. */

const people: Record<string, ImportCandidate> = {
  kozak: { id: 'u1', name: 'Kozak', live: null },
  'kozak@example.test': { id: 'u1', name: 'Kozak', live: null },
  vovk: { id: 'u2', name: 'Vovk', live: 'approved' },
  lis: { id: 'u3', name: 'Lis', live: null },
  sova: { id: 'u4', name: 'Sova', live: null },
};
const facts = (over: Partial<ImportFacts> = {}): ImportFacts => ({
  soloOnly: true,
  placesLeft: Infinity,
  emailAllowed: true,
  find: (value) => people[value.toLowerCase()],
  ...over,
});
const rows = (...values: string[]) => values.map((value, i) => ({ line: i + 2, value }));
const statuses = (verdicts: ReturnType<typeof judgeImport>) => verdicts.map((v) => v.status);

describe('the column of names', () => {
  it('is the first header cell that names participants, else the first column', () => {
    expect(nameColumn(['Гравець'])).toEqual({ header: true, column: 0 });
    expect(nameColumn(['№', ' EMAIL ', 'Нікнейм'])).toEqual({ header: true, column: 1 });
    expect(nameColumn(['#', 'Team name'])).toEqual({ header: true, column: 1 });
    expect(nameColumn(['kozak', 'vovk'])).toEqual({ header: false, column: 0 });
    expect(nameColumn([])).toEqual({ header: false, column: 0 });
  });
});

describe('judging rows', () => {
  it('names each row’s first problem: empty, unknown, duplicate (by nickname or email), already registered', () => {
    const verdicts = judgeImport(rows('Kozak', '', 'nobody', 'kozak@example.test', 'Vovk', 'Lis'), facts());
    expect(statuses(verdicts)).toEqual(['ok', 'empty', 'unknownPlayer', 'duplicate', 'alreadyRegistered', 'ok']);
    expect(verdicts[3]!.duplicateOf).toBe(2);
  });

  it('refuses emails where they are not taken, and says «team» in team tournaments', () => {
    expect(statuses(judgeImport(rows('kozak@example.test', 'Kozak'), facts({ emailAllowed: false })))).toEqual(['emailNotAllowed', 'ok']);
    const teams = {
      find: (v: string) =>
        v === 'Small' ? { id: 't1', name: 'Small', live: null, members: 4 } : v === 'Full' ? { id: 't2', name: 'Full', live: null, members: 7 } : undefined,
    };
    expect(statuses(judgeImport(rows('Small', 'Full', 'None', 'a@b.c'), facts({ soloOnly: false, emailAllowed: false, ...teams })))).toEqual([
      'teamSize',
      'ok',
      'unknownTeam',
      'unknownTeam',
    ]);
  });

  it('gives the free places to the first rows that may be added, in the file’s order', () => {
    expect(statuses(judgeImport(rows('Vovk', 'Kozak', 'nobody', 'Lis', 'Sova'), facts({ placesLeft: 2 })))).toEqual([
      'alreadyRegistered',
      'ok',
      'unknownPlayer',
      'ok',
      'overCap',
    ]);
    expect(statuses(judgeImport(rows('Kozak'), facts({ placesLeft: 0 })))).toEqual(['overCap']);
  });

  it('never lets more rows be added than there are places, nor one participant twice', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('Kozak', 'kozak@example.test', 'Vovk', 'Lis', 'Sova', '', 'x'), { maxLength: 12 }),
        fc.nat({ max: 5 }),
        (values, free) => {
          const verdicts = judgeImport(rows(...values), facts({ placesLeft: free }));
          const ok = verdicts.filter((v) => v.status === 'ok');
          expect(ok.length).toBeLessThanOrEqual(free);
          expect(new Set(ok.map((v) => v.candidate!.id)).size).toBe(ok.length);
        },
      ),
    );
  });
});

describe('a cell a spreadsheet shows as text', () => {
  it('starts with an apostrophe when it would start a formula, and is left alone otherwise', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(textCell(formula)).toBe(`'${formula}`);
    for (const plain of ['Kozak', 'Кібер; "Козаки"', '', ' =1', "'quoted"]) expect(textCell(plain)).toBe(plain);
  });
});
