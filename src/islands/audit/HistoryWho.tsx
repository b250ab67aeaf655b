import { useEffect, useState } from 'react';
import type { AuditEntryView } from '../../lib/api/audit-calls.ts';
import type { HistoryQuery } from '../../lib/api/audit-query.ts';
import { useCanOrganise } from '../../lib/hooks/organiser.ts';
import { onPageEvent } from '../../lib/live/events.ts';
import { t } from '../../lib/i18n/index.ts';

/** Who made an entry, and for an application's decision its line with the applicant's name (which guests do not read). */
export interface Who {
  actor: NonNullable<AuditEntryView['actor']> | null;
  line?: string;
}

/** What an organiser's page adds to each entry: its actor, and for an application's decision (the one kind guests may read unnamed) its line with the applicant. */
export function whoOf(items: readonly AuditEntryView[], words: (entry: AuditEntryView) => string): Map<string, Who> {
  return new Map(items.map((e) => [e._id, { actor: e.actor ?? null, ...(e.kind === 'applicationDecided' ? { line: words(e) } : {}) }]));
}

/** Writes who made each shown entry into its `data-audit-actor`, and a named line into its `data-audit-text` (unchanged text is left alone, so no mutation loops). */
function fillIn(root: ParentNode, who: ReadonlyMap<string, Who>) {
  for (const entry of root.querySelectorAll<HTMLElement>('[data-audit-entry]')) {
    const slot = entry.querySelector<HTMLElement>('[data-audit-actor]');
    const id = entry.dataset.auditEntry ?? '';
    const known = who.get(id);
    if (!slot || !known) continue;
    const { actor, line } = known;
    const text = actor ? t('history.by', { name: actor.username || t('history.unknown') }) : t('history.byServer');
    if (slot.textContent !== text) slot.textContent = text;
    slot.hidden = false;
    const words = entry.querySelector<HTMLElement>('[data-audit-text]');
    if (line !== undefined && words && words.textContent !== line) words.textContent = line;
  }
}

/**
 * Who made each change of a tournament's history (issue 23), for its organisers only: the page the
 * server renders is every guest's, so it shows what and when; for an admin or the tournament's
 * staff this reads the same entries with their token and writes each one's actor beside it (and
 * names the applicant of a decision guests read unnamed), again when the page's history is redrawn
 * live. Draws nothing itself.
 */
export default function HistoryWho({ tournamentId, limit, before }: { tournamentId: string } & HistoryQuery) {
  const organiser = useCanOrganise(tournamentId);
  const [who, setWho] = useState<ReadonlyMap<string, Who>>(new Map());
  // Bumped by each live event: the redrawn history may hold new entries.
  const [round, setRound] = useState(0);
  useEffect(() => onPageEvent(tournamentId, () => setRound((n) => n + 1)), [tournamentId]);

  useEffect(() => {
    if (!organiser) return;
    let live = true;
    // Loaded for organisers only: a guest's page never fetches the client for this island.
    Promise.all([import('../../lib/api/audit-calls.ts'), import('../../lib/stores/api.ts'), import('../../components/audit-words.ts')])
      .then(async ([{ getHistory }, { api }, { auditText }]) => {
        const page = await getHistory(api, tournamentId, { limit, before });
        if (live) setWho(whoOf(page.items, auditText));
      })
      // Without the names the history still reads; nothing to tell.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [organiser, tournamentId, before, limit, round]);

  useEffect(() => {
    if (who.size === 0) return;
    fillIn(document, who);
    // The live redraw replaces the history's region: fill the new one in too.
    const observer = new MutationObserver(() => fillIn(document, who));
    const region = document.querySelector('[data-live-region="history"]')?.parentElement;
    if (region) observer.observe(region, { childList: true });
    return () => observer.disconnect();
  }, [who]);

  return null;
}
