import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FollowSaved, MembersSaved, Organisation, OrganisationListItem, OrganisationSaved, SuspendedOrganisation } from '../../src/lib/api/organisations.ts';
import { MAX_OWNED_ORGANISATIONS } from '../../src/lib/domain/organisation.ts';
import { notifications, organisationMembers, organisations, users } from '../../src/server/db/schema/index.ts';
import { changed } from '../../src/server/services/live/changes.ts';
import { admin as adminOf, player, unique, useTestApi, type Player } from '../support/builders.ts';

/*
 * Organisations (issue 56): anyone with a confirmed address founds one and owns it; its owner and
 * admins change it and its people; anyone may leave; the platform's admin verifies and suspends.
 */

const api = useTestApi();
let admin: Player;

beforeAll(async () => {
  admin = await adminOf(api);
});

const create = (token: string | undefined, body: unknown) => api.call<OrganisationSaved>('POST', '/api/organisations', { token, body });
const read = (idOrSlug: string, token?: string) => api.call<Organisation>('GET', `/api/organisations/${idOrSlug}`, { token });
const members = (id: string, token: string | undefined, body: unknown) => api.call<MembersSaved>('POST', `/api/organisations/${id}/members`, { token, body });
const role = (id: string, userId: string, token: string | undefined, body: unknown) =>
  api.call<MembersSaved>('PATCH', `/api/organisations/${id}/members/${userId}`, { token, body });
const leave = (id: string, userId: string, token: string | undefined) => api.call<MembersSaved>('DELETE', `/api/organisations/${id}/members/${userId}`, { token });
const moderate = (id: string, body: unknown, token: string | undefined = admin.token) => api.call<OrganisationSaved>('PATCH', `/api/organisations/${id}`, { token, body });

/** A new organisation owned by a new player (or `owner`). */
async function founded(owner?: Player, body: Record<string, unknown> = {}) {
  const who = owner ?? (await player(api));
  const res = await create(who.token, { name: unique('Клуб '), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { owner: who, organisation: res.body.organisation };
}

/** Everything a refused change could have touched: the organisations, their members and follows. */
async function state(): Promise<string> {
  const result = (await api.db.execute(
    sql`select (select coalesce(json_agg(o order by o.id), '[]') from organisations o)::text || (select coalesce(json_agg(m order by m.organisation_id, m.user_id), '[]') from organisation_members m)::text || (select coalesce(json_agg(f order by f.organisation_id, f.user_id), '[]') from organisation_follows f)::text as s`,
  )) as unknown as { rows: { s: string }[] };
  return result.rows[0]!.s;
}

describe('founding an organisation', () => {
  it('makes the founder its owner, with a slug made from a Ukrainian name', async () => {
    const owner = await player(api);
    const name = `Кіберклуб «Львів» ${unique('')}`;
    const res = await create(owner.token, { name, description: 'Щотижневі кубки', links: { telegram: 'https://t.me/lvivclub', site: 'https://lviv.example' } });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(`Організацію «${name}» створено`);
    const org = res.body.organisation;
    expect(org.slug).toMatch(/^kiberklub-lviv-/);
    expect(org.members).toEqual([expect.objectContaining({ _id: owner.user.id, role: 'owner' })]);
    expect(org.links).toEqual({ telegram: 'https://t.me/lvivclub', site: 'https://lviv.example' });
    expect(org.viewer).toEqual({ role: 'owner', following: false });
    expect(org.verified).toBe(false);
    // Anyone reads it by slug or id; a guest has no viewer part.
    const bySlug = await read(org.slug);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body._id).toBe(org._id);
    expect(bySlug.body.viewer).toBeNull();
    expect((await read(org._id)).body.slug).toBe(org.slug);
  });

  it('refuses a guest (401) and an unconfirmed account (403), changing nothing', async () => {
    const before = await state();
    expect((await create(undefined, { name: unique('Клуб ') })).status).toBe(401);
    const unconfirmed = await player(api);
    // An address changed and not yet confirmed; the held session learns of it as from any write.
    await api.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, unconfirmed.user.id));
    changed('sessions');
    const res = await create(unconfirmed.token, { name: unique('Клуб ') });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Підтвердьте адресу пошти, щоб створити організацію' });
    expect(await state()).toBe(before);
  });

  it('keeps names and slugs unique, look-alikes included (409)', async () => {
    const { organisation } = await founded(undefined, { name: `Odesa Storm ${unique('')}`, slug: unique('odesa-').replace(/_/g, '-').toLowerCase() });
    const other = await player(api);
    const before = await state();
    const sameName = await create(other.token, { name: organisation.name.toUpperCase() });
    expect(sameName.status).toBe(409);
    expect(sameName.body.message).toBe('Організація з такою назвою вже є');
    // Cyrillic О and е in place of Latin ones.
    const lookAlike = await create(other.token, { name: organisation.name.replace('O', 'О').replace('e', 'е') });
    expect(lookAlike.status).toBe(409);
    expect(lookAlike.body.message).toBe('Назва надто схожа на назву іншої організації');
    const sameSlug = await create(other.token, { name: unique('Інший '), slug: organisation.slug });
    expect(sameSlug.status).toBe(409);
    expect(sameSlug.body.message).toBe('Цю адресу вже зайнято');
    expect(await state()).toBe(before);
  });

  it('numbers a slug made from a name when it is taken', async () => {
    const base = unique('Zoria').toLowerCase().replace(/_/g, '');
    const first = await founded(undefined, { name: `${base}`, slug: base });
    const second = await founded(undefined, { name: `${base} ІІ` });
    expect(first.organisation.slug).toBe(base);
    expect(second.organisation.slug).toBe(`${base}-ii`);
  });

  it.each([
    [{ name: '' }, 'Вкажіть назву організації'],
    [{ name: 'x'.repeat(65) }, 'Назва — щонайбільше 64 символів'],
    [{ name: 'Клуб\u200b' }, 'Назва містить невидимі символи'],
    [{ name: 'Клуб\u0007' }, 'Назва містить невидимі символи'],
    [{ name: 'Клуб\u0000' }, 'містить недопустимі символи'],
    [{ name: 'Клуб', description: 'Опис\u0001' }, 'Текст містить недопустимі символи'],
    [{ name: 'Клуб', slug: 'Ab' }, 'Адреса: від 3 до 40 малих латинських літер, цифр і дефісів (не на початку й не в кінці)'],
    [{ name: 'Клуб', slug: 'new' }, 'Адреса: від 3 до 40 малих латинських літер, цифр і дефісів (не на початку й не в кінці)'],
    [{ name: 'Клуб', slug: 'a--b' }, 'Адреса: від 3 до 40 малих латинських літер, цифр і дефісів (не на початку й не в кінці)'],
    // An address reads an id-shaped slug as an id: such a slug would name another organisation.
    [{ name: 'Клуб', slug: '51AD00ED-2cc4-4edd-8409-0a8d71a69bee' }, 'Адреса не може мати вигляд ідентифікатора'],
    [{ name: 'Клуб', links: { discord: 'https://evil.example/discord.gg' } }, 'Discord: посилання https на discord.gg або discord.com'],
    [{ name: 'Клуб', links: { telegram: 'http://t.me/x' } }, 'Telegram: посилання https на t.me'],
    [{ name: 'Клуб', links: { twitch: 'https://user:pw@twitch.tv/x' } }, 'Twitch: посилання https на twitch.tv'],
    [{ name: 'Клуб', links: { youtube: 'javascript:alert(1)' } }, 'YouTube: посилання https на youtube.com або youtu.be'],
    [{ name: 'Клуб', links: { site: 'ftp://x.example' } }, 'Сайт має бути посиланням http або https'],
    [{ name: 'Клуб', logoUrl: 'data:image/png;base64,AAAA' }, 'Логотип має бути посиланням http або https'],
    [{ name: 'Клуб', description: 'я'.repeat(2001) }, 'Опис — щонайбільше 2000 символів'],
  ])('refuses %j with a Ukrainian message (400), changing nothing', async (body, message) => {
    const owner = await player(api);
    const before = await state();
    const res = await create(owner.token, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await state()).toBe(before);
  });

  it('refuses a name no slug can be made from, asking for one', async () => {
    const owner = await player(api);
    const res = await create(owner.token, { name: '★★★' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Вкажіть адресу сторінки латиницею: з назви її не вийшло скласти');
  });

  it(`lets one account own at most ${MAX_OWNED_ORGANISATIONS}, also in a parallel burst`, async () => {
    const owner = await player(api);
    const answers = await Promise.all(Array.from({ length: 5 }, () => create(owner.token, { name: unique('Burst ') })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_OWNED_ORGANISATIONS);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => a.status)).toEqual([409, 409]);
    expect(refused[0]!.body.message).toBe(`Один акаунт може володіти щонайбільше ${MAX_OWNED_ORGANISATIONS} організаціями`);
    const owned = await api.db.select().from(organisationMembers).where(eq(organisationMembers.userId, owner.user.id));
    expect(owned).toHaveLength(MAX_OWNED_ORGANISATIONS);
  });
});

describe('changing an organisation', () => {
  it('lets its owner and admins change the profile; staff and strangers get 403', async () => {
    const { owner, organisation } = await founded();
    const [adminMember, staffMember, stranger] = [await player(api), await player(api), await player(api)];
    expect((await members(organisation._id, owner.token, { user: adminMember.user.username, role: 'admin' })).status).toBe(201);
    expect((await members(organisation._id, owner.token, { user: staffMember.user.id, role: 'staff' })).status).toBe(201);
    const body = { name: unique('Нова назва '), description: 'Оновлено', links: { youtube: 'https://www.youtube.com/@club' } };
    for (const who of [staffMember, stranger]) {
      const res = await api.call('PUT', `/api/organisations/${organisation._id}`, { token: who.token, body });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Це можуть лише власник і адміністратори організації');
    }
    const res = await api.call<OrganisationSaved>('PUT', `/api/organisations/${organisation._id}`, { token: adminMember.token, body });
    expect(res.status).toBe(200);
    expect(res.body.organisation).toMatchObject({ name: body.name, description: 'Оновлено', slug: organisation.slug, links: { youtube: 'https://www.youtube.com/@club' } });
    expect((await api.call('PUT', `/api/organisations/${organisation._id}`, { body })).status).toBe(401);
  });

  it('answers 404 for an organisation that does not exist', async () => {
    const someone = await player(api);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await api.call('PUT', `/api/organisations/${missing}`, { token: someone.token, body: { name: 'X клуб' } })).status).toBe(404);
    expect((await read(missing)).status).toBe(404);
    expect((await read('no-such-club')).status).toBe(404);
  });
});

describe('members and roles', () => {
  it('adds a member at once and tells them in the bell', async () => {
    const { owner, organisation } = await founded();
    const newcomer = await player(api);
    const res = await members(organisation._id, owner.token, { user: newcomer.user.username, role: 'staff' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(`${newcomer.user.username} тепер персонал організації`);
    expect(res.body.members.map((m) => m.role)).toEqual(['owner', 'staff']);
    const bell = await api.db.select().from(notifications).where(eq(notifications.userId, newcomer.user.id));
    expect(bell.map((n) => n.text)).toContain(`Вас додано до організації «${organisation.name}»: ви персонал`);
  });

  it('refuses unknown players, members twice, emails, and roles that cannot be given', async () => {
    const { owner, organisation } = await founded();
    const member = await player(api);
    await members(organisation._id, owner.token, { user: member.user.username, role: 'staff' });
    const before = await state();
    const cases: [unknown, number, string][] = [
      [{ user: 'nobody_here_at_all', role: 'staff' }, 404, 'Гравця не знайдено'],
      [{ user: member.user.username, role: 'admin' }, 409, 'Цей гравець уже в організації'],
      [{ user: member.user.email, role: 'staff' }, 404, 'Гравця не знайдено'],
      [{ user: member.user.username, role: 'owner' }, 400, 'Роль: admin або staff (owner — щоб передати власність)'],
      [{ user: '', role: 'staff' }, 400, 'Вкажіть нікнейм або id гравця'],
    ];
    for (const [body, status, message] of cases) {
      const res = await members(organisation._id, owner.token, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toContain(message);
    }
    expect(await state()).toBe(before);
  });

  it('lets staff add no one, and admins manage admins and staff but never the owner', async () => {
    const { owner, organisation } = await founded();
    const [adminMember, staffMember, other] = [await player(api), await player(api), await player(api)];
    await members(organisation._id, owner.token, { user: adminMember.user.username, role: 'admin' });
    await members(organisation._id, owner.token, { user: staffMember.user.username, role: 'staff' });
    expect((await members(organisation._id, staffMember.token, { user: other.user.username, role: 'staff' })).status).toBe(403);
    expect((await role(organisation._id, staffMember.user.id, adminMember.token, { role: 'admin' })).status).toBe(200);
    const onOwner = await role(organisation._id, owner.user.id, adminMember.token, { role: 'staff' });
    expect(onOwner.status).toBe(409);
    expect(onOwner.body.message).toBe('Власник лишається в організації, доки не передасть власність іншому');
    const handOver = await role(organisation._id, adminMember.user.id, adminMember.token, { role: 'owner' });
    expect(handOver.status).toBe(403);
    expect((await leave(organisation._id, owner.user.id, adminMember.token)).status).toBe(409);
    // A staff member cannot raise themselves.
    await role(organisation._id, staffMember.user.id, owner.token, { role: 'staff' });
    expect((await role(organisation._id, staffMember.user.id, staffMember.token, { role: 'admin' })).status).toBe(403);
    // Nor change anyone: the owner too is refused as a change staff may not make, not as the owner's.
    for (const target of [owner, adminMember]) {
      const tried = await role(organisation._id, target.user.id, staffMember.token, { role: 'staff' });
      expect(tried.status).toBe(403);
    }
  });

  it('hands ownership over: the old owner becomes an admin; two hand-overs at once leave one owner', async () => {
    const { owner, organisation } = await founded();
    const [b, c] = [await player(api), await player(api)];
    await members(organisation._id, owner.token, { user: b.user.username, role: 'admin' });
    await members(organisation._id, owner.token, { user: c.user.username, role: 'admin' });
    const answers = await Promise.all([role(organisation._id, b.user.id, owner.token, { role: 'owner' }), role(organisation._id, c.user.id, owner.token, { role: 'owner' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    const rows = await api.db.select().from(organisationMembers).where(eq(organisationMembers.organisationId, organisation._id));
    expect(rows.filter((r) => r.role === 'owner')).toHaveLength(1);
    expect(rows.find((r) => r.userId === owner.user.id)?.role).toBe('admin');
    const won = answers.find((a) => a.status === 200)!;
    expect(won.body.message).toMatch(/^Власником організації тепер є /);
  });

  it('lets anyone leave, but not the owner', async () => {
    const { owner, organisation } = await founded();
    const member = await player(api);
    await members(organisation._id, owner.token, { user: member.user.username, role: 'staff' });
    const left = await leave(organisation._id, member.user.id, member.token);
    expect(left.status).toBe(200);
    expect(left.body.message).toBe('Ви вийшли з організації');
    expect(left.body.members.map((m) => m._id)).toEqual([owner.user.id]);
    const again = await leave(organisation._id, member.user.id, member.token);
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('Це можуть лише люди організації');
    const ownerLeaves = await leave(organisation._id, owner.user.id, owner.token);
    expect(ownerLeaves.status).toBe(409);
    // A stranger removes nobody.
    const stranger = await player(api);
    expect((await leave(organisation._id, owner.user.id, stranger.token)).status).toBe(403);
  });
});

describe('following', () => {
  it('counts followers; following twice changes nothing; a guest gets 401', async () => {
    const { organisation } = await founded();
    const fan = await player(api);
    const follow = (method: string) => api.call<FollowSaved>(method, `/api/organisations/${organisation._id}/follow`, { token: fan.token });
    expect((await follow('POST')).body).toEqual({ message: `Ви стежите за «${organisation.name}»`, following: true, followers: 1 });
    expect((await follow('POST')).body.followers).toBe(1);
    expect((await read(organisation.slug, fan.token)).body.viewer).toEqual({ role: null, following: true });
    expect((await follow('DELETE')).body).toEqual({ message: `Ви більше не стежите за «${organisation.name}»`, following: false, followers: 0 });
    expect((await api.call('POST', `/api/organisations/${organisation._id}/follow`)).status).toBe(401);
  });
});

describe('the directory', () => {
  it('finds by name or slug, verified first, paged with a Link to the next page', async () => {
    const tag = unique('dir').toLowerCase().replace(/_/g, '');
    const a = await founded(undefined, { name: `${tag} Альфа` });
    const b = await founded(undefined, { name: `${tag} Бета` });
    await moderate(b.organisation._id, { verified: true });
    const res = await api.call<OrganisationListItem[]>('GET', `/api/organisations?q=${tag}&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body.map((o) => o._id)).toEqual([b.organisation._id]);
    expect(res.headers.get('link')).toMatch(/rel="?next"?/);
    const second = await api.call<OrganisationListItem[]>('GET', `/api/organisations?q=${tag}&limit=1&offset=1`);
    expect(second.body.map((o) => o._id)).toEqual([a.organisation._id]);
    // `%` is looked for as itself, not as «anything».
    expect((await api.call<OrganisationListItem[]>('GET', '/api/organisations?q=%25%25%25')).body).toEqual([]);
    expect((await api.call('GET', `/api/organisations?q=${'я'.repeat(65)}`)).status).toBe(400);
  });
});

describe('moderation by the platform admin', () => {
  it('verifies; only the admin may (403 for an owner)', async () => {
    const { owner, organisation } = await founded();
    expect((await moderate(organisation._id, { verified: true }, owner.token)).status).toBe(403);
    const res = await moderate(organisation._id, { verified: true });
    expect(res.status).toBe(200);
    expect(res.body.organisation.verified).toBe(true);
  });

  it('suspends with a reason: gone from the public, the owner told why, members can change nothing; lifting restores it', async () => {
    const { owner, organisation } = await founded();
    const tag = organisation.name;
    expect((await moderate(organisation._id, { suspended: true })).status).toBe(400);
    const res = await moderate(organisation._id, { suspended: true, reason: 'Спам турнірами' });
    expect(res.status).toBe(200);
    expect(res.body.organisation.suspended).toMatchObject({ reason: 'Спам турнірами' });
    expect((await read(organisation.slug)).status).toBe(404);
    expect((await api.call<OrganisationListItem[]>('GET', `/api/organisations?q=${encodeURIComponent(tag)}`)).body).toEqual([]);
    // Its owner still sees it, marked, and can change nothing.
    expect((await read(organisation.slug, owner.token)).body.suspended?.reason).toBe('Спам турнірами');
    const change = await api.call('PUT', `/api/organisations/${organisation._id}`, { token: owner.token, body: { name: tag } });
    expect(change.status).toBe(403);
    expect(change.body.message).toBe('Організацію призупинено: змінити в ній нічого не можна');
    const bell = await api.db.select().from(notifications).where(eq(notifications.userId, owner.user.id));
    expect(bell.map((n) => n.text)).toContain(`Організацію «${tag}» призупинено. Причина: Спам турнірами`);
    // Following a suspended organisation: it is not there.
    const fan = await player(api);
    expect((await api.call('POST', `/api/organisations/${organisation._id}/follow`, { token: fan.token })).status).toBe(404);
    // The platform's admin finds it among the suspended, with why; nobody else may read that list.
    const suspended = await api.call<SuspendedOrganisation[]>('GET', '/api/organisations/suspended?limit=100', { token: admin.token });
    expect(suspended.body.find((o) => o._id === organisation._id)).toMatchObject({ slug: organisation.slug, suspended: { reason: 'Спам турнірами' } });
    expect((await api.call('GET', '/api/organisations/suspended', { token: owner.token })).status).toBe(403);
    expect((await api.call('GET', '/api/organisations/suspended')).status).toBe(401);
    // Its people may still leave it.
    const staffMember = await player(api);
    await api.db.insert(organisationMembers).values({ organisationId: organisation._id, userId: staffMember.user.id, role: 'staff' });
    expect((await leave(organisation._id, staffMember.user.id, staffMember.token)).status).toBe(200);
    // Lifted: back, nothing lost.
    expect((await moderate(organisation._id, { suspended: false })).status).toBe(200);
    const back = await read(organisation.slug);
    expect(back.status).toBe(200);
    expect(back.body.members).toHaveLength(1);
    const [row] = await api.db.select().from(organisations).where(eq(organisations.id, organisation._id));
    expect(row?.suspendedAt).toBeNull();
    const after = await api.call<SuspendedOrganisation[]>('GET', '/api/organisations/suspended?limit=100', { token: admin.token });
    expect(after.body.map((o) => o._id)).not.toContain(organisation._id);
  });

  it('refuses an empty change (400)', async () => {
    const { organisation } = await founded();
    const res = await moderate(organisation._id, {});
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Вкажіть, що змінити: verified або suspended');
  });
});

describe('deleting', () => {
  it('lets the owner delete it; an admin may not', async () => {
    const { owner, organisation } = await founded();
    const adminMember = await player(api);
    await members(organisation._id, owner.token, { user: adminMember.user.username, role: 'admin' });
    const byAdmin = await api.call('DELETE', `/api/organisations/${organisation._id}`, { token: adminMember.token });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.message).toBe('Це може лише власник організації');
    const byOwner = await api.call('DELETE', `/api/organisations/${organisation._id}`, { token: owner.token });
    expect(byOwner.status).toBe(200);
    expect((await read(organisation._id)).status).toBe(404);
  });
});
