import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { confirmationLetter, emailInUseLetter } from '../../src/server/mail/letters.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';

let dir: string | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a letter’s language', () => {
  it('is the one asked for, Ukrainian by default outside a request', () => {
    expect(confirmationLetter('a@x.test', 'Kozak', 'https://arena.test/confirm?token=t').subject).toBe('Підтвердіть пошту на Кіберарені');
    const en = emailInUseLetter('a@x.test', 'https://arena.test/login', 'en');
    expect(en.subject).toBe('Someone tried to use your email on Kiberarena');
    expect(en.text).toBe(
      'Someone gave this address as the new email of another Kiberarena account. Your account already has it, so nothing was changed. If it was you, sign in to your account.\n\nSign in: https://arena.test/login\n\nIf you did not sign up on Kiberarena, simply ignore this letter.',
    );
  });

  it('is named in the sent letter’s Content-Language header', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const mailer = createMailer({ from: 'arena@x.test', outboxDir: dir });
    await mailer.send(confirmationLetter('reader@x.test', 'Reader', 'https://arena.test/confirm?token=t', 'en'));
    const [file] = await readdir(dir);
    const eml = await readFile(join(dir, file!), 'utf8');
    expect(eml).toMatch(/^Content-Language: en$/m);
    expect(eml).toMatch(/^Subject: Confirm your email on Kiberarena$/m);
  });
});
