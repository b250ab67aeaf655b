/**
 * The admin page's sections (SPEC §2 Admin panel): each is reached in one step from the page's
 * section menu, by `/admin?section=<name>`, so a link to a section works, reload keeps it and the
 * browser's back and forward move between sections. The page renders only the chosen section's
 * panels, so only their islands load.
 */
export const ADMIN_SECTIONS = ['applications', 'tournaments', 'results', 'games', 'news', 'organisations', 'seasons', 'venues', 'audit'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

/** The section shown when none (or an unknown one) is asked for: applications wait for an answer. */
export const DEFAULT_ADMIN_SECTION: AdminSection = 'applications';

/** The section a `section` query value names, else the default one. */
export function adminSection(value: string | null | undefined): AdminSection {
  return ADMIN_SECTIONS.find((section) => section === value) ?? DEFAULT_ADMIN_SECTION;
}

/** The address of a section of the admin page. */
export const adminSectionHref = (section: AdminSection) => `/admin?section=${section}`;
