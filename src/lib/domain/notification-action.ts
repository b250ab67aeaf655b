/** What an action button of a notification asks the server to do (SPEC §3 Notification). */
export type NotificationCall =
  | { kind: 'team'; verb: 'accept' | 'reject'; teamId: string }
  | { kind: 'tournament'; verb: 'accept' | 'reject'; applicationId: string };

interface ActionableNotification {
  actionType?: string | null | undefined;
  payload?: { teamId?: string | undefined; applicationId?: string | undefined } | null | undefined;
}

/**
 * The call behind pressing `action` on `notification`, or null for an action the site does not
 * know (the bell then says 'Невідомий тип дії'). The notification's `actionType` names what it
 * is about (a team or a tournament invite); the button's `type` says accept or reject.
 */
export function notificationCall(notification: ActionableNotification, action: { type?: string | undefined }): NotificationCall | null {
  const verb = action.type === 'accept' || action.type === 'reject' ? action.type : null;
  if (!verb) return null;
  const payload = notification.payload ?? {};
  switch (notification.actionType) {
    case 'acceptTeamInvite':
    case 'declineTeamInvite':
      return payload.teamId ? { kind: 'team', verb, teamId: payload.teamId } : null;
    case 'acceptTournamentInvite':
    case 'declineTournamentInvite':
      return payload.applicationId ? { kind: 'tournament', verb, applicationId: payload.applicationId } : null;
    default:
      return null;
  }
}
