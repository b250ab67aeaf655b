import { admin } from './uk/admin.ts';
import { audit } from './uk/audit.ts';
import { auth } from './uk/auth.ts';
import { bracket } from './uk/bracket.ts';
import { cabinet } from './uk/cabinet.ts';
import { common } from './uk/common.ts';
import { competition } from './uk/competition.ts';
import { control } from './uk/control.ts';
import { matchReports } from './uk/match-reports.ts';
import { gameManagement } from './uk/game-management.ts';
import { live } from './uk/live.ts';
import { mail } from './uk/mail.ts';
import { matchHistory } from './uk/match-history.ts';
import { news } from './uk/news.ts';
import { organisations } from './uk/organisations.ts';
import { seasons } from './uk/seasons.ts';
import { notices } from './uk/notices.ts';
import { notifications } from './uk/notifications.ts';
import { profiles } from './uk/profiles.ts';
import { stageAdmin } from './uk/stage-admin.ts';
import { schedule } from './uk/schedule.ts';
import { share } from './uk/share.ts';
import { stages } from './uk/stages.ts';
import { staff } from './uk/staff.ts';
import { stats } from './uk/stats.ts';
import { teams } from './uk/teams.ts';
import { tournaments } from './uk/tournaments.ts';
import { tournamentList } from './uk/tournament-list.ts';
import { venues } from './uk/venues.ts';
import { veto } from './uk/veto.ts';
import { matchRoom } from './uk/match-room.ts';
import { integrations } from './uk/integrations.ts';
import { webhooks } from './uk/webhooks.ts';
import { telegram } from './uk/telegram.ts';
import { linkedAccounts } from './uk/linked-accounts.ts';
import { apiKeys } from './uk/api-keys.ts';
import { participantFiles } from './uk/participant-files.ts';
import { matchChat } from './uk/match-chat.ts';
import { matchEvidence } from './uk/match-evidence.ts';

/**
 * Ukrainian, the default language. Every visible string of the site lives in uk/ and en/, one
 * file per feature with the same name in both; a test keeps their keys equal.
 */
export const uk = { ...common, ...auth, ...admin, ...tournaments, ...tournamentList, ...teams, ...matchHistory, ...notifications, ...news, ...cabinet, ...bracket, ...gameManagement, ...stats, ...stages, ...stageAdmin, ...schedule, ...competition, ...matchReports, ...mail, ...notices, ...live, ...profiles, ...share, ...staff, ...audit, ...organisations, ...seasons, ...control, ...venues, ...veto, ...matchEvidence, ...matchChat, ...matchRoom, ...integrations, ...webhooks, ...telegram, ...linkedAccounts, ...participantFiles, ...apiKeys } as const;

export type MessageKey = keyof typeof uk;
