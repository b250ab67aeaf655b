/**
 * The demo's organisations (issue 56): three hosts, one verified, each with its people, followers
 * and tournaments in every state, so a newcomer sees the platform at once; the club's weekly cup
 * plans the stages of last week's. The demo's tournaments
 * are given to them; the rest stay the site's own.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { planOf } from '../../../lib/domain/stage/stage-plan.ts';
import type { OrganisationLinks, OrganisationRole } from '../../../lib/domain/organisation.ts';
import type { Tx } from '../client.ts';
import { organisationFactory, organisationFollowFactory, organisationMemberFactory } from '../factories/index.ts';
import { stages, tournaments } from '../schema/index.ts';

interface DemoOrganisation {
  slug: string;
  name: string;
  description: string;
  verified: boolean;
  links: OrganisationLinks;
  /** The owner first. */
  people: [string, OrganisationRole][];
  followers: string[];
  /** Keys of the demo's tournaments it hosts. */
  hosts: string[];
  /** Its weekly cup: `clone` was cloned from `of` and plans the stages `of` was played in. */
  weekly?: { clone: string; of: string };
}

export const DEMO_ORGANISATIONS: DemoOrganisation[] = [
  {
    slug: 'kyiv-cyberleague',
    name: 'Київська кіберліга',
    description:
      'Ліга, що з 2019 року проводить командні турніри з CS2 та Dota 2 у Києві й онлайн. Сезонні кубки, відбори до фіналів наживо, трансляції на YouTube.',
    verified: true,
    links: { site: 'https://kyiv-cyberleague.example', telegram: 'https://t.me/kyivcyberleague', youtube: 'https://www.youtube.com/@kyivcyberleague' },
    people: [
      ['Kyiv_Cyborg', 'owner'],
      ['Hetman_AWP', 'admin'],
      ['Lesya_Support', 'staff'],
    ],
    followers: ['KozakSniper', 's1mple_fan', 'HopakHeadshot', 'DniproDragon', 'ZaporizhRush', 'OdesaWave', 'KharkivHawk'],
    hosts: ['cs2-dnipro-cup', 'cs2-awp-kings', 'cs2-kyiv-league', 'dota-clan-league', 'dota-opening-cup', 'dota-mid-duel'],
  },
  {
    slug: 'kiberklub-lviv',
    name: 'Кіберклуб «Львів»',
    description: 'Комп’ютерний клуб у центрі Львова: щотижневі вечірні турніри з Valorant і League of Legends, приходьте наживо або грайте онлайн.',
    verified: false,
    links: { discord: 'https://discord.gg/kiberklub-lviv', telegram: 'https://t.me/kiberklub_lviv' },
    people: [
      ['LvivLion', 'owner'],
      ['Karpaty_Wolf', 'staff'],
    ],
    followers: ['Mavka_Mid', 'Ternopil_Tiger', 'KozakSniper'],
    hosts: ['valorant-night-league', 'valorant-carpathian-cup', 'lol-aram-night', 'lol-evening-check-in'],
    weekly: { clone: 'valorant-carpathian-cup', of: 'valorant-night-league' },
  },
  {
    slug: 'odesa-esports-school',
    name: 'Odesa Esports School',
    description: 'Шкільна кіберспортивна секція Одеси: навчальні турніри для учнів 8–11 класів.',
    verified: false,
    links: { twitch: 'https://www.twitch.tv/odesaesportsschool' },
    people: [['OdesaWave', 'owner']],
    followers: ['Dnister_Flow'],
    hosts: ['lol-first-season', 'lol-spring-cup', 'dota-ranked-duels', 'lol-slobozhanshchyna'],
  },
];

/**
 * Writes the demo's organisations: `userId` and `tournamentId` find the demo's own rows by nickname
 * and by tournament key; `at` makes a moment `days` from now.
 */
export async function seedOrganisations(
  tx: Tx,
  { userId, tournamentId, at }: { userId: (nick: string) => string; tournamentId: (key: string) => string; at: (days: number) => Date },
): Promise<void> {
  for (const [index, demo] of DEMO_ORGANISATIONS.entries()) {
    const createdAt = at(-85 + index * 5);
    const row = await organisationFactory.insert(tx, {
      slug: demo.slug,
      name: demo.name,
      description: demo.description,
      links: demo.links,
      verified: demo.verified,
      createdAt,
      updatedAt: createdAt,
    });
    const [owner] = demo.people[0]!;
    await organisationMemberFactory.insertMany(
      tx,
      demo.people.map(([nick, role], k) => ({ organisationId: row.id, userId: userId(nick), role, addedBy: userId(owner), createdAt: at(-85 + index * 5 + k) })),
    );
    await organisationFollowFactory.insertMany(
      tx,
      demo.followers.map((nick, k) => ({ organisationId: row.id, userId: userId(nick), createdAt: at(-60 + k) })),
    );
    await tx
      .update(tournaments)
      .set({ organisationId: row.id })
      .where(inArray(tournaments.id, demo.hosts.map(tournamentId)));
    if (demo.weekly) {
      const played = await tx.select().from(stages).where(eq(stages.tournamentId, tournamentId(demo.weekly.of))).orderBy(asc(stages.number));
      await tx.update(tournaments).set({ stagePlan: planOf(played) }).where(eq(tournaments.id, tournamentId(demo.weekly.clone)));
    }
  }
}
