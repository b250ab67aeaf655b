import { getMyApplications } from '../../lib/api/my-applications.ts';
import { isLiveApplication } from '../../lib/domain/application-rules.ts';
import { api } from '../../lib/stores/api.ts';

/**
 * Rewrites each card's apply link (`data-apply-for`) in `lists` to say the reader's application
 * instead («Заявку подано», «Ви берете участь», «У черзі очікування»), in the words the list carries.
 * On a failed read the cards stay as they are: each still leads to its tournament, whose page knows.
 */
export async function markApplied(lists: HTMLElement[]): Promise<void> {
  const { applications } = await getMyApplications(api).catch(() => ({ applications: [] }));
  const applied = new Map(applications.map((a) => [a.tournament, a.status]));
  for (const list of lists) {
    const labels = JSON.parse(list.dataset.appliedLabels ?? '{}') as Record<string, string>;
    for (const link of list.querySelectorAll<HTMLAnchorElement>('a[data-apply-for]')) {
      const status = applied.get(link.dataset.applyFor ?? '');
      const label = status && isLiveApplication(status) ? labels[status] : undefined;
      if (!label) continue;
      link.textContent = `✓ ${label}`;
      link.setAttribute('aria-label', `${label}: ${link.dataset.title ?? ''}`);
      link.classList.replace('btn-primary', 'btn-ghost');
      link.setAttribute('href', (link.getAttribute('href') ?? '').replace(/#apply$/, ''));
    }
  }
}
