import { useEffect, type ReactNode } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { t } from '../../lib/i18n/index.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { $sessionLoading, $user } from '../../lib/stores/session.ts';

/**
 * Shows admin pages (the panels passed as children) to admins only. Everyone else is sent to the home page (SPEC §2); the API
 * refuses them anyway, this is only the user's side of it.
 */
export default function AdminGate({ title, children }: { title: string; children?: ReactNode }) {
  const user = useHydratedStore($user, null);
  const loading = useHydratedStore($sessionLoading, true);
  const isAdmin = user?.role === 'admin';

  useEffect(() => {
    if (!loading && !isAdmin) window.location.replace('/');
  }, [loading, isAdmin]);

  if (loading) return <Notice>{t('admin.checking')}</Notice>;
  if (!isAdmin) return <Notice tone="error">{t('admin.only')}</Notice>;
  return (
    <section aria-label={title} className="flex flex-col gap-6">
      {children ?? <Notice>{t('admin.welcome', { name: user.username })}</Notice>}
    </section>
  );
}
