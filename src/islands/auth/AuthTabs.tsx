import { useState, type KeyboardEvent } from 'react';
import { t } from '../../lib/i18n/index.ts';
import { LoginForm } from './LoginForm.tsx';
import { ProviderSignIn } from './ProviderSignIn.tsx';
import { RegisterForm } from './RegisterForm.tsx';

type Tab = 'login' | 'register';
const tabs: { id: Tab; label: 'auth.loginTab' | 'auth.registerTab' }[] = [
  { id: 'login', label: 'auth.loginTab' },
  { id: 'register', label: 'auth.registerTab' },
];

/** The /login page: Login and Register tabs (WAI-ARIA tabs, arrow keys switch). */
export default function AuthTabs() {
  const [active, setActive] = useState<Tab>('login');

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = active === 'login' ? 'register' : 'login';
    setActive(next);
    document.getElementById(`tab-${next}`)?.focus();
  }

  return (
    <div className="card mx-auto w-full max-w-md">
      <ProviderSignIn />
      <div role="tablist" aria-label={t('auth.loginTitle')} className="mb-5 grid grid-cols-2 gap-1 rounded-lg bg-surface-2 p-1" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            id={`tab-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={active === tab.id}
            aria-controls={`panel-${tab.id}`}
            tabIndex={active === tab.id ? 0 : -1}
            className={`btn ${active === tab.id ? 'bg-primary text-primary-fg' : 'text-fg'}`}
            onClick={() => setActive(tab.id)}
          >
            {t(tab.label)}
          </button>
        ))}
      </div>
      <div id={`panel-${active}`} role="tabpanel" aria-labelledby={`tab-${active}`}>
        {active === 'login' ? <LoginForm /> : <RegisterForm />}
      </div>
    </div>
  );
}
