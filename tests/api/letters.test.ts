import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/builders.ts';

const api = useTestApi();
const CYRILLIC = /\p{Script=Cyrillic}/u;
const english = { cookie: 'theme=dark; lang=en' };
const letterTo = (email: string) => {
  const letter = api.outbox.findLast((l) => l.to.toLowerCase() === email.toLowerCase());
  if (!letter) throw new Error(`no letter for ${email}`);
  return letter;
};

describe('letters in the reader’s language', () => {
  it('confirm a sign-up in English when the request was English, and in Ukrainian otherwise', async () => {
    await api.call('POST', '/api/auth/register', { body: { username: 'Reader_En', email: 'reader-en@example.test', password: 'hunter2hunter2' }, headers: english });
    const en = letterTo('reader-en@example.test');
    expect(en.subject).toBe('Confirm your email on Kiberarena');
    expect(en.language).toBe('en');
    expect(en.text).toContain('Welcome, Reader_En!');
    expect(en.text).toContain(`Confirm email: ${en.link}`);
    for (const part of [en.subject, en.text, en.html]) expect(part).not.toMatch(CYRILLIC);
    expect(en.html).toContain('<div lang="en">');

    await api.call('POST', '/api/auth/register', { body: { username: 'Reader_Uk', email: 'reader-uk@example.test', password: 'hunter2hunter2' } });
    const uk = letterTo('reader-uk@example.test');
    expect(uk.subject).toBe('Підтвердіть пошту на Кіберарені');
    expect(uk.language).toBe('uk');
    expect(uk.text).toContain('Вітаємо, Reader_Uk!');
  });

  it('resend the confirmation in the language of the request that asked for it', async () => {
    await api.call('POST', '/api/auth/resend-confirmation', { body: { email: 'reader-uk@example.test' }, headers: english });
    expect(letterTo('reader-uk@example.test').subject).toBe('Confirm your email on Kiberarena');
  });

  it('write the email-change letter and the address-in-use warning in English for an English request', async () => {
    const mover = await api.signedIn();
    const owner = await api.signedIn();
    await api.call('PUT', '/api/cabinet/me', { token: mover.token, body: { email: 'moved-en@example.test' }, headers: english });
    const change = letterTo('moved-en@example.test');
    expect(change.subject).toBe('Confirm your new email on Kiberarena');
    expect(change.text).toContain(`${mover.user.username}, you changed your email address on Kiberarena.`);
    expect(change.text).not.toMatch(CYRILLIC);

    await api.call('PUT', '/api/cabinet/me', { token: mover.token, body: { email: owner.user.email }, headers: english });
    const warning = letterTo(owner.user.email);
    expect(warning.subject).toBe('Someone tried to use your email on Kiberarena');
    expect(`${warning.text}${warning.html}`).not.toMatch(CYRILLIC);
  });
});
