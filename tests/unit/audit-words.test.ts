import { afterEach, describe, expect, it } from 'vitest';
import { auditText } from '../../src/components/audit-words.ts';
import type { AuditEntryView } from '../../src/lib/api/audit-calls.ts';
import { AUDIT_KINDS, type AuditKind } from '../../src/lib/domain/organisers.ts';
import { setLocaleResolver } from '../../src/lib/i18n/index.ts';

/*
 * The words of the audit log (issue 23): every kind becomes one full line in both languages, from
 * its before → after as the services write them (lib/domain/audit.ts).
 */

afterEach(() => setLocaleResolver(() => 'uk'));

const match = (scoreA: number | null, scoreB: number | null, winner: 'a' | 'b' | null, forfeit: 'a' | 'b' | null = null) => ({
  a: 'Kozak',
  b: 'Cyborg',
  result: { scoreA, scoreB, winner, forfeit },
});
const open = { a: 'Kozak', b: null, result: null };

/** One entry of each kind, as the services write it. */
const ENTRIES: Record<AuditKind, Pick<AuditEntryView, 'kind' | 'before' | 'after' | 'subject'>> = {
  applicationDecided: { kind: 'applicationDecided', subject: null, before: { status: 'pending', applicant: 'Kozak' }, after: { status: 'approved', applicant: 'Kozak' } },
  participantAdded: { kind: 'participantAdded', subject: null, before: null, after: { participant: 'Kozak', status: 'approved' } },
  checkInOverride: { kind: 'checkInOverride', subject: null, before: { checkedIn: false, participant: 'Kozak' }, after: { checkedIn: true, participant: 'Kozak' } },
  checkInExtended: { kind: 'checkInExtended', subject: null, before: { closesAt: '2026-12-05T16:50:00.000Z' }, after: { closesAt: '2026-12-05T17:05:00.000Z' } },
  stageCreated: { kind: 'stageCreated', subject: null, before: null, after: { name: 'Groups', number: 1, format: 'round_robin', participants: 5 } },
  stageReset: { kind: 'stageReset', subject: null, before: { name: '', number: 2, format: 'single_elimination', participants: 4, results: 3 }, after: null },
  resultEntered: { kind: 'resultEntered', subject: null, before: { ...open, b: 'Cyborg' }, after: match(2, 1, 'a') },
  resultCorrected: { kind: 'resultCorrected', subject: null, before: match(2, 1, 'a'), after: match(1, 2, 'b') },
  resultReset: { kind: 'resultReset', subject: null, before: match(2, 0, 'a'), after: { ...open, b: 'Cyborg' } },
  forfeit: { kind: 'forfeit', subject: null, before: { ...open, b: 'Cyborg' }, after: match(0, 0, 'a', 'b') },
  disqualified: { kind: 'disqualified', subject: null, before: null, after: { participant: 'Cyborg', forfeits: 2 } },
  disputeResolved: { kind: 'disputeResolved', subject: null, before: { ...open, b: 'Cyborg' }, after: match(0, 2, 'b') },
  lobbyGameEntered: { kind: 'lobbyGameEntered', subject: null, before: null, after: { round: 1, lobby: 2, final: false, game: 3, order: ['Kozak', 'Vovk', 'Lis', 'Cyborg'] } },
  lobbyGameCorrected: {
    kind: 'lobbyGameCorrected',
    subject: null,
    before: { round: 2, lobby: 1, final: true, game: 1, order: ['Vovk', 'Kozak'] },
    after: { round: 2, lobby: 1, final: true, game: 1, order: ['Kozak', 'Vovk'] },
  },
  winnerSet: { kind: 'winnerSet', subject: null, before: { winner: null }, after: { winner: 'Kozak', finished: true } },
  staffAdded: { kind: 'staffAdded', subject: null, before: null, after: { username: 'helper' } },
  staffRemoved: { kind: 'staffRemoved', subject: null, before: { username: 'helper' }, after: null },
  venueRequested: { kind: 'venueRequested', subject: null, before: null, after: { networks: ['203.0.113.7', '192.168.50.0/24'], note: 'Kiberklub', status: 'pending' } },
  venueApproved: {
    kind: 'venueApproved',
    subject: null,
    before: { networks: ['203.0.113.7'], note: 'Kiberklub', status: 'pending' },
    after: { networks: ['203.0.113.7'], note: 'Kiberklub', status: 'approved' },
  },
  venueRefused: {
    kind: 'venueRefused',
    subject: null,
    before: { networks: ['203.0.113.7'], note: 'Kiberklub', status: 'pending' },
    after: { networks: ['203.0.113.7'], note: 'Kiberklub', status: 'refused' },
  },
  venueWithdrawn: { kind: 'venueWithdrawn', subject: null, before: { networks: ['203.0.113.7'], note: 'Kiberklub', status: 'approved' }, after: null },
};

describe('audit log words', () => {
  it('word every kind in Ukrainian', () => {
    expect(Object.fromEntries(AUDIT_KINDS.map((kind) => [kind, auditText(ENTRIES[kind])]))).toEqual({
      applicationDecided: 'Заявка Kozak: На розгляді → Схвалено',
      participantAdded: 'Kozak: додано організатором до учасників',
      checkInOverride: 'Kozak: участь підтвердив організатор',
      checkInExtended: 'Реєстрацію присутності подовжено до 5 грудня 2026 р. о 19:05',
      stageCreated: 'Створено етап «Groups» (Кругова система): 5 учасників',
      stageReset: 'Скасовано етап «Етап 2» (Олімпійська система) разом із результатами: 3',
      resultEntered: 'Kozak — Cyborg: результат 2:1',
      resultCorrected: 'Kozak — Cyborg: результат виправлено, 2:1 → 1:2',
      resultReset: 'Kozak — Cyborg: результат 2:0 скасовано',
      forfeit: 'Kozak — Cyborg: технічна поразка Cyborg',
      disqualified: 'Cyborg дискваліфіковано; технічних поразок одразу: 2',
      disputeResolved: 'Kozak — Cyborg: спір вирішено, результат 0:2',
      lobbyGameEntered: 'Лобі 2 (раунд 1), гра 3: 1. Kozak, 2. Vovk, 3. Lis, …',
      lobbyGameCorrected: 'Фінальне лобі, гра 1: результат виправлено, 1. Vovk, 2. Kozak → 1. Kozak, 2. Vovk',
      winnerSet: 'Переможець турніру: Kozak; турнір завершено',
      staffAdded: 'helper — новий співорганізатор',
      staffRemoved: 'helper більше не співорганізатор',
      venueRequested: 'Запит на мережу зали «Kiberklub»: 203.0.113.7, 192.168.50.0/24',
      venueApproved: 'Мережу зали «Kiberklub» схвалено: 203.0.113.7',
      venueRefused: 'Мережу зали «Kiberklub» відхилено',
      venueWithdrawn: 'Мережу зали «Kiberklub» відкликано',
    });
  });

  it('word every kind in English, with nothing left unfilled', () => {
    setLocaleResolver(() => 'en');
    for (const kind of AUDIT_KINDS) expect(auditText(ENTRIES[kind]), kind).not.toMatch(/[{}]|[а-яіїєґ]/i);
    expect(auditText(ENTRIES.resultCorrected)).toBe('Kozak — Cyborg: result corrected, 2:1 → 1:2');
  });

  it('tell the server’s moves, deletions, cascades, check-outs and winners without a score apart', () => {
    expect(auditText({ ...ENTRIES.applicationDecided, before: { status: 'waitlisted', applicant: 'Kozak' }, after: { status: 'pending', applicant: 'Kozak', automatic: true } })).toBe(
      'Заявка Kozak автоматично: У черзі очікування → На розгляді',
    );
    expect(auditText({ ...ENTRIES.applicationDecided, after: { status: 'deleted', applicant: 'Kozak' } })).toBe('Заявку Kozak видалено (була: На розгляді)');
    expect(auditText({ ...ENTRIES.resultReset, subject: '00000000-0000-4000-8000-000000000000' })).toBe(
      'Kozak — Cyborg: результат 2:0 скасовано, бо змінився матч, від якого він залежав',
    );
    expect(auditText({ ...ENTRIES.checkInOverride, after: { checkedIn: false, participant: 'Kozak' } })).toBe('Kozak: підтвердження участі скасував організатор');
    expect(auditText({ ...ENTRIES.checkInOverride, after: { checkedIn: true, participant: 'Kozak', status: 'approved' } })).toBe(
      'Kozak: організатор повернув до турніру після закриття реєстрації присутності',
    );
    expect(auditText({ ...ENTRIES.resultEntered, after: match(null, null, 'b') })).toBe('Kozak — Cyborg: результат перемога Cyborg');
    expect(auditText({ ...ENTRIES.resultReset, before: { a: 'Kozak', b: null, result: match(1, 0, 'a').result } })).toBe('Kozak — Ще невідомо: результат 1:0 скасовано');
  });

  it('word a decision a guest may not read the applicant of without a name, in both languages', () => {
    const unnamed = (before: string, after: string, automatic = false) => ({
      ...ENTRIES.applicationDecided,
      before: { status: before },
      after: { status: after, ...(automatic ? { automatic } : {}) },
    });
    expect(auditText(unnamed('pending', 'rejected'))).toBe('Заявка: На розгляді → Відхилено');
    expect(auditText(unnamed('waitlisted', 'pending', true))).toBe('Заявка автоматично: У черзі очікування → На розгляді');
    expect(auditText(unnamed('pending', 'deleted'))).toBe('Заявку видалено (була: На розгляді)');
    setLocaleResolver(() => 'en');
    for (const entry of [unnamed('pending', 'rejected'), unnamed('waitlisted', 'pending', true), unnamed('pending', 'deleted')]) {
      expect(auditText(entry)).not.toMatch(/[{}]|[а-яіїєґ]|undefined/i);
    }
  });
});
