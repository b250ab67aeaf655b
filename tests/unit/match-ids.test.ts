import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { draftStage } from '../../src/lib/domain/stage/build.ts';
import { MAX_STAGE_PARTICIPANTS, type STAGE_FORMATS, type StageSettings } from '../../src/lib/domain/stage/format.ts';
import { stageMatchId } from '../../src/server/services/competition/match-ids.ts';

const people = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);

/** The largest plan of each format: 256 players, round robin in 4 groups of 64, double round. */
const LARGEST: [(typeof STAGE_FORMATS)[number], StageSettings][] = [
  ['single_elimination', { thirdPlace: true }],
  ['double_elimination', { grandFinal: 'double' }],
  ['round_robin', { groups: 4, doubleRound: true }],
  ['round_robin', { groups: 16, doubleRound: true }],
  ['swiss', { rounds: 20 }],
];

describe('stageMatchId', () => {
  it.each(LARGEST)('gives every match of the largest %s plan its own valid UUID sharing the stage id but the last 8 digits', (format, settings) => {
    const stageId = randomUUID();
    const ids = draftStage(format, settings, people(MAX_STAGE_PARTICIPANTS), 'order').plan.map((m) => stageMatchId(stageId, m));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(z.uuid().safeParse(id).success).toBe(true);
      expect(id.slice(0, -8)).toBe(stageId.slice(0, -8));
    }
  });

  it('is one-to-one on places within the fields, so two places of a stage never share an id', () => {
    const stageId = randomUUID();
    const place = fc.record({
      group: fc.option(fc.integer({ min: 1, max: 16 }), { nil: null }),
      side: fc.constantFrom(null, 'winners', 'losers', 'grand_final', 'third_place' as const),
      round: fc.integer({ min: 1, max: 255 }),
      position: fc.integer({ min: 1, max: 0xffff }),
    });
    fc.assert(
      fc.property(place, place, (x, y) => {
        const same = x.group === y.group && x.side === y.side && x.round === y.round && x.position === y.position;
        expect(stageMatchId(stageId, x) === stageMatchId(stageId, y)).toBe(same);
      }),
    );
  });

  it('refuses a place outside its fields instead of wrapping onto another match', () => {
    const stageId = randomUUID();
    expect(() => stageMatchId(stageId, { group: null, side: null, round: 256, position: 1 })).toThrow(RangeError);
    expect(() => stageMatchId(stageId, { group: 32, side: null, round: 1, position: 1 })).toThrow(RangeError);
    expect(() => stageMatchId(stageId, { group: null, side: 'winners', round: 1, position: 0x10000 })).toThrow(RangeError);
  });
});
