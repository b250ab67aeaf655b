import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { beforeAll, describe, expect, it } from 'vitest';
import AuditList from '../../src/components/AuditList.astro';
import type { AuditEntryView } from '../../src/lib/api/audit-calls.ts';

/**
 * The history on the server-rendered page (issue 23), which every guest shares: a decision the
 * API gave a guest without its applicant reads unnamed, and each line is where HistoryWho
 * rewords it for the tournament's organisers.
 */
let container: AstroContainer;
beforeAll(async () => {
  container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
});

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const decision = (id: string, before: object, after: object): AuditEntryView => ({
  _id: id,
  kind: 'applicationDecided',
  at: '2031-06-01T15:00:00.000Z',
  tournament: null,
  match: null,
  subject: null,
  before: before as AuditEntryView['before'],
  after: after as AuditEntryView['after'],
});

describe('the history list', () => {
  it('reads a guest’s unnamed decision without a name, a named one with it, each line marked for HistoryWho', async () => {
    const html = await container.renderToString(AuditList, {
      props: {
        entries: [
          decision('a', { status: 'pending' }, { status: 'rejected' }),
          decision('b', { status: 'pending', applicant: 'Kozak' }, { status: 'approved', applicant: 'Kozak' }),
        ],
      },
    });
    expect(text(html)).toContain('Заявка: На розгляді → Відхилено');
    expect(text(html)).toContain('Заявка Kozak: На розгляді → Схвалено');
    expect(text(html)).not.toMatch(/undefined|\{applicant\}/);
    expect(html.match(/data-audit-text/g)).toHaveLength(2);
  });
});
