import { admin } from './en/admin.ts';
import { audit } from './en/audit.ts';
import { auth } from './en/auth.ts';
import { bracket } from './en/bracket.ts';
import { cabinet } from './en/cabinet.ts';
import { common } from './en/common.ts';
import { competition } from './en/competition.ts';
import { matchReports } from './en/match-reports.ts';
import { gameManagement } from './en/game-management.ts';
import { live } from './en/live.ts';
import { mail } from './en/mail.ts';
import { matchHistory } from './en/match-history.ts';
import { news } from './en/news.ts';
import { organisations } from './en/organisations.ts';
import { notices } from './en/notices.ts';
import { notifications } from './en/notifications.ts';
import { profiles } from './en/profiles.ts';
import { stageAdmin } from './en/stage-admin.ts';
import { schedule } from './en/schedule.ts';
import { share } from './en/share.ts';
import { stages } from './en/stages.ts';
import { staff } from './en/staff.ts';
import { stats } from './en/stats.ts';
import { teams } from './en/teams.ts';
import { tournaments } from './en/tournaments.ts';
import type { MessageKey } from './uk.ts';

/** English: the spec's own wording where it gives one. */
export const en: Record<MessageKey, string> = { ...common, ...auth, ...admin, ...tournaments, ...teams, ...matchHistory, ...notifications, ...news, ...cabinet, ...bracket, ...gameManagement, ...stats, ...stages, ...stageAdmin, ...schedule, ...competition, ...matchReports, ...mail, ...notices, ...live, ...profiles, ...share, ...staff, ...audit, ...organisations };
