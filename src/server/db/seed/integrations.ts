/**
 * Integrations in the demo (issue 60): the Kyiv cyberleague posts to its Discord channel. Its log
 * shows two tournaments announced and a champion whose post Discord kept refusing. Its Telegram
 * channel's log shows the same two tournaments announced. The league also
 * has an outgoing webhook to its own scoreboard (a reserved `.example` name, so it never resolves)
 * whose log shows results delivered and one waiting for a retry. The address is
 * a made-up one: a new event of the demo is tried, refused by Discord (or by no network), and
 * shows so in the log.
 */
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { DISCORD_EVENTS, TELEGRAM_EVENTS, type EventPayload } from '../../../lib/domain/organisation-events.ts';
import type { Tx } from '../client.ts';
import { endpointDeliveries, games, organisationEndpoints, organisations, tournaments } from '../schema/index.ts';

export const DEMO_WEBHOOK = 'https://scoreboard.kyiv-cyberleague.example/kiberarena/hooks';

export const DEMO_DISCORD_WEBHOOK = `https://discord.com/api/webhooks/1180000000000000042/${'DemoKiberarena-'.repeat(5)}`;

/** The league's Telegram channel, by the numeric id a channel has in Telegram. */
export const DEMO_TELEGRAM_CHAT = '-1001180000000042';

export async function seedIntegrations(tx: Tx, { tournamentId, at }: { tournamentId: (key: string) => string; at: (days: number) => Date }): Promise<void> {
  const [league] = await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, 'kyiv-cyberleague'));
  if (!league) return;
  const [endpoint] = await tx
    .insert(organisationEndpoints)
    .values({ organisationId: league.id, kind: 'discord', url: DEMO_DISCORD_WEBHOOK, events: [...DISCORD_EVENTS], locale: 'uk', createdAt: at(-30) })
    .returning();
  const rows = await tx
    .select({ id: tournaments.id, title: tournaments.title, date: tournaments.date, game: games.name })
    .from(tournaments)
    .innerJoin(games, eq(games.id, tournaments.gameId))
    .where(inArray(tournaments.id, [tournamentId('cs2-awp-kings'), tournamentId('dota-mid-duel'), tournamentId('cs2-dnipro-cup')]));
  const payload = (key: string): EventPayload => {
    const row = rows.find((r) => r.id === tournamentId(key))!;
    return { tournament: { id: row.id, title: row.title, date: row.date.toISOString(), game: row.game } };
  };
  /** A new tournament's announcement to `endpointId`, delivered `days` ago at the first try. */
  const announced = (endpointId: string, key: string, days: number, lastStatus = 200) => ({
    endpointId,
    event: 'tournament.created' as const,
    payload: payload(key),
    state: 'sent' as const,
    attempts: 1,
    lastStatus,
    createdAt: at(-days),
    sentAt: at(-days),
  });
  await tx.insert(endpointDeliveries).values([
    announced(endpoint!.id, 'cs2-dnipro-cup', 20),
    {
      endpointId: endpoint!.id,
      event: 'tournament.finished',
      payload: { ...payload('cs2-dnipro-cup'), champion: null },
      state: 'failed',
      attempts: 8,
      lastStatus: 502,
      lastError: 'Bad Gateway',
      createdAt: at(-6),
    },
    { ...announced(endpoint!.id, 'cs2-awp-kings', 3), attempts: 2 },
    announced(endpoint!.id, 'dota-mid-duel', 1),
  ]);
  // Its Telegram channel (shown to its managers when the site has a bot, TELEGRAM_BOT_TOKEN): a made-up chat id, as the Discord address is.
  const [channel] = await tx
    .insert(organisationEndpoints)
    .values({ organisationId: league.id, kind: 'telegram', url: DEMO_TELEGRAM_CHAT, events: [...TELEGRAM_EVENTS], locale: 'uk', createdAt: at(-10) })
    .returning();
  await tx.insert(endpointDeliveries).values([announced(channel!.id, 'cs2-awp-kings', 3), announced(channel!.id, 'dota-mid-duel', 1)]);
  const [hook] = await tx
    .insert(organisationEndpoints)
    .values({
      organisationId: league.id,
      kind: 'webhook',
      url: DEMO_WEBHOOK,
      events: ['tournament.created', 'match.completed', 'tournament.finished'],
      secret: `whsec_${randomBytes(24).toString('base64')}`,
      locale: 'uk',
      createdAt: at(-25),
    })
    .returning();
  await tx.insert(endpointDeliveries).values([
    announced(hook!.id, 'cs2-awp-kings', 3, 204),
    announced(hook!.id, 'dota-mid-duel', 1, 204),
    {
      endpointId: hook!.id,
      event: 'tournament.finished',
      payload: { ...payload('cs2-dnipro-cup'), champion: null },
      state: 'failed',
      attempts: 8,
      lastStatus: 500,
      lastError: '500 Internal Server Error',
      createdAt: at(-6),
    },
  ]);
}
