import { describe, expect, it } from 'vitest';
import { auditText } from '../../src/components/audit-words.ts';
import { whoOf } from '../../src/islands/audit/HistoryWho.tsx';
import type { AuditEntryView } from '../../src/lib/api/audit-calls.ts';

/*
 * What the HistoryWho island writes on an organiser's copy of the guests' history (issue 23): who
 * made each entry, and an application decision's line with the applicant guests do not read.
 */

const entry = (
  id: string,
  kind: AuditEntryView['kind'],
  before: object | null,
  after: object | null,
  actor: AuditEntryView['actor'] = null,
): AuditEntryView => ({
  _id: id,
  kind,
  at: '2031-06-01T15:00:00.000Z',
  tournament: null,
  match: null,
  subject: null,
  before: before as AuditEntryView['before'],
  after: after as AuditEntryView['after'],
  actor,
});

describe('the history as its organisers read it', () => {
  it('names the applicant of a decision and its actor; other kinds keep the server’s line', () => {
    const admin = { _id: '00000000-0000-4000-8000-000000000001', username: 'boss' };
    const who = whoOf(
      [
        entry('a', 'applicationDecided', { status: 'pending', applicant: 'Kozak' }, { status: 'rejected', applicant: 'Kozak' }, admin),
        entry('b', 'staffAdded', null, { username: 'helper' }, admin),
        entry('c', 'applicationDecided', { status: 'waitlisted', applicant: 'Cyborg' }, { status: 'pending', applicant: 'Cyborg', automatic: true }),
      ],
      auditText,
    );
    expect(who.get('a')).toEqual({ actor: admin, line: 'Заявка Kozak: На розгляді → Відхилено' });
    expect(who.get('b')).toEqual({ actor: admin });
    expect(who.get('c')).toEqual({ actor: null, line: 'Заявка Cyborg автоматично: У черзі очікування → На розгляді' });
  });
});
