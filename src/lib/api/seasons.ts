import { z } from 'zod';
import { t } from '../i18n/index.ts';
import { PARTICIPANT_TYPES } from '../domain/participant.ts';
import { pointsRefusal, POINTS_MAX, POINTS_PLACES_MAX, SEASON_NAME_MAX } from '../domain/season.ts';
import { hasControlCharacters } from '../domain/team.ts';
import { organisationCardSchema } from './organisations.ts';
import { pageQuery } from './paging.ts';

/*
 * Seasons (issue 59): an organisation's (or the site's) series of tournaments whose final places add
 * up to one table. Anyone reads them; the organisation's owner and admins (the site's admin for the
 * site's own) make them and choose their tournaments.
 */

/** A tournament of a season, as its page lists it. */
export const seasonTournamentSchema = z.object({
  _id: z.string(),
  title: z.string(),
  date: z.string(),
  status: z.string(),
  soloOnly: z.boolean(),
});
export type SeasonTournament = z.infer<typeof seasonTournamentSchema>;

const seasonFields = {
  _id: z.string(),
  name: z.string(),
  game: z.object({ _id: z.string(), name: z.string(), image: z.string().nullable() }),
  /** The organisation running it; null for the site's own. */
  organisation: organisationCardSchema.nullable(),
  /** Points for 1st, 2nd, …; every place after the last scores 0. */
  pointsByPlace: z.array(z.number().int()),
  /** Players (true) or teams (false); null until its first tournament decides. */
  soloOnly: z.boolean().nullable(),
  createdAt: z.string(),
};

/** `GET /seasons/{id}`: the season and its tournaments, oldest first. */
export const seasonSchema = z.object({ ...seasonFields, tournaments: z.array(seasonTournamentSchema) });
export type Season = z.infer<typeof seasonSchema>;

/** `GET /seasons`: a season as lists show it, with how many tournaments it has and how many are finished. */
export const seasonListItemSchema = z.object({ ...seasonFields, tournaments: z.number().int(), finished: z.number().int() });
export type SeasonListItem = z.infer<typeof seasonListItemSchema>;

export const seasonSaved = z.object({ message: z.string(), season: seasonSchema });
export type SeasonSaved = z.infer<typeof seasonSaved>;

/** One tournament's result of a participant in the season's table. */
export const seasonResultSchema = z.object({ tournament: z.string(), from: z.number().int(), to: z.number().int(), points: z.number().int() });

/** `GET /seasons/{id}/standings`: the table, computed from its finished tournaments' places as they are now. */
export const seasonStandingsSchema = z.object({
  season: z.object({ _id: z.string(), name: z.string(), pointsByPlace: z.array(z.number().int()), soloOnly: z.boolean().nullable() }),
  /** Its tournaments, oldest first; `counted` once finished. */
  tournaments: z.array(seasonTournamentSchema.extend({ counted: z.boolean() })),
  rows: z.array(
    z.object({
      rank: z.number().int(),
      participant: z.object({ type: z.enum(PARTICIPANT_TYPES), _id: z.string(), name: z.string() }),
      total: z.number().int(),
      best: z.number().int(),
      /** The most recent tournament first. */
      results: z.array(seasonResultSchema),
    }),
  ),
});
export type SeasonStandings = z.infer<typeof seasonStandingsSchema>;
export type SeasonStandingRow = SeasonStandings['rows'][number];

const seasonName = z
  .string()
  .trim()
  .refine((v) => v.length > 0, { error: () => t('season.enterName') })
  .refine((v) => v.length <= SEASON_NAME_MAX, { error: () => t('season.nameTooLong', { max: SEASON_NAME_MAX }) })
  .refine((v) => !hasControlCharacters(v), { error: () => t('season.invalidCharacters') })
  .prefault('');

/** Items of any shape, so the domain's rule (not zod's wording about an item's index) names what is wrong. */
const pointsByPlace = z
  .array(z.unknown())
  .superRefine((points, ctx) => {
    const refusal = pointsRefusal(points);
    if (refusal) ctx.addIssue({ code: 'custom', message: t(`season.points.${refusal}`, { max: refusal === 'tooMany' ? POINTS_PLACES_MAX : POINTS_MAX }) });
  })
  .transform((points) => points as number[]);

/** `POST /seasons`: without `organisation`, the site's own (its admin's). */
export const seasonInput = z.object({
  name: seasonName,
  game: z.uuid(),
  pointsByPlace,
  soloOnly: z.boolean().nullable().optional(),
  organisation: z.uuid().optional(),
});
export type SeasonInput = z.input<typeof seasonInput>;

/** `PUT /seasons/{id}`: its name and points; its game and kind only while it has no tournament. */
export const seasonUpdate = z.object({
  name: seasonName,
  pointsByPlace,
  game: z.uuid().optional(),
  soloOnly: z.boolean().nullable().optional(),
});
export type SeasonUpdate = z.input<typeof seasonUpdate>;

/** `GET /seasons`: one organisation's (`site`: the site's own), one game's, and the page. */
export const seasonListQuery = z
  .object({
    organisation: z.union([z.uuid(), z.literal('site')]).optional(),
    game: z.uuid().optional(),
  })
  .extend(pageQuery);
