import type { ReactNode } from 'react';
import type { TournamentApplication } from '../lib/api/tournaments.ts';
import type { ApplicationStatus, Review } from '../lib/domain/application-rules.ts';
import { applicantName } from '../lib/domain/participant.ts';
import { t } from '../lib/i18n/index.ts';

interface Props<A extends TournamentApplication> {
  applications: readonly A[];
  /** What a row shows of its application, left of the buttons. */
  describe: (application: A) => ReactNode;
  /** How the buttons name the application for screen readers. */
  label: (application: A) => string;
  /** Whether a review is offered; by default every change of status, and deleting. */
  allowed?: (application: A, to: Review) => boolean;
  busy: boolean;
  /** Deleting is asked only after the admin confirms it. */
  onReview: (application: A, to: Review) => void;
}

const changes = (a: TournamentApplication, to: Review) => a.status !== to;

/**
 * Applications with approve, reject and delete (after a confirmation), SPEC §2, §4: the admin
 * panel's list of every tournament and a tournament page's own list are this one list.
 */
export function ApplicationList<A extends TournamentApplication>({ applications, describe, label, allowed = changes, busy, onReview }: Props<A>) {
  return (
    <ul className="flex flex-col divide-y divide-line">
      {applications.map((a) => (
        <li key={a._id} className="flex flex-col gap-2 py-3 md:flex-row md:items-center md:justify-between">
          {describe(a)}
          <div className="flex flex-wrap gap-2">
            {allowed(a, 'approved') && (
              <button type="button" className="btn-primary px-3 py-1" disabled={busy} aria-label={`${t('applications.approve')}: ${label(a)}`} onClick={() => onReview(a, 'approved')}>
                {t('applications.approve')}
              </button>
            )}
            {allowed(a, 'rejected') && (
              <button type="button" className="btn-ghost px-3 py-1" disabled={busy} aria-label={`${t('applications.reject')}: ${label(a)}`} onClick={() => onReview(a, 'rejected')}>
                {t('applications.reject')}
              </button>
            )}
            {allowed(a, 'deleted') && (
              <button
                type="button"
                className="btn-ghost px-3 py-1 text-danger"
                disabled={busy}
                aria-label={`${t('applications.delete')}: ${label(a)}`}
                onClick={() => {
                  if (window.confirm(t('applications.confirmDelete', { name: applicantName(a) }))) onReview(a, 'deleted');
                }}
              >
                {t('applications.delete')}
              </button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The colour of an application's status word. */
export const STATUS_TONE = { pending: 'text-warning', approved: 'text-success', rejected: 'text-danger', waitlisted: 'text-muted', noShow: 'text-danger' } as const satisfies Record<ApplicationStatus, string>;
