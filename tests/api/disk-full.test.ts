import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { admin, useTestApi } from '../support/builders.ts';

const api = useTestApi();

/**
 * A full disk, as the database reports it: a trigger on the news table refuses every new row with
 * PostgreSQL's disk_full (53100), the code a server or PGlite gives when a file cannot grow. The
 * test writes the trigger directly, since no route fills a disk.
 */
async function fillTheDisk() {
  await api.db.execute(
    sql.raw(`create or replace function refuse_for_disk_full() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`),
  );
  await api.db.execute(sql.raw('create trigger news_disk_full before insert on news for each row execute function refuse_for_disk_full()'));
}
const freeTheDisk = () => api.db.execute(sql.raw('drop trigger news_disk_full on news'));

const publish = async (token: string, headers?: Record<string, string>) =>
  api.call('POST', '/api/news', { token, body: { title: 'Диск', content: 'Новина про місце на диску.' }, ...(headers ? { headers } : {}) });

describe('a full disk', () => {
  it('answers a refused write with 503, Retry-After and a message in the reader’s language; health says so until a write succeeds', async () => {
    const { token } = await admin(api);
    expect((await api.call('GET', '/api/health')).body).toMatchObject({ status: 'ok', storage: 'ok' });

    await fillTheDisk();
    const refused = await publish(token);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.body).toEqual({ message: 'Зараз не вдається зберегти зміни: на сервері закінчилося місце для даних. Спробуйте пізніше.' });
    const english = await publish(token, { cookie: 'lang=en' });
    expect(english.status).toBe(503);
    expect(english.body.message).toBe('Changes cannot be saved right now: the server has run out of storage space. Try again later.');

    // The database still answers reads, but an instance that cannot save is not healthy.
    const degraded = await api.call('GET', '/api/health');
    expect(degraded.status).toBe(503);
    expect(degraded.headers.get('retry-after')).toBe('30');
    expect(degraded.body).toMatchObject({ status: 'unavailable', database: 'ok', storage: 'full' });
    expect((await api.call('GET', '/api/news')).status).toBe(200);

    await freeTheDisk();
    expect((await publish(token)).status).toBe(201);
    const recovered = await api.call('GET', '/api/health');
    expect(recovered.status).toBe(200);
    expect(recovered.headers.get('retry-after')).toBeNull();
    expect(recovered.body).toMatchObject({ status: 'ok', database: 'ok', storage: 'ok' });
  });
});
