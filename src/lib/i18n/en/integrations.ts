import type { integrations as uk } from '../uk/integrations.ts';

/** An organisation's integrations (issue 60): its Discord channel, and what is posted there. */
export const integrations: Record<keyof typeof uk, string> = {
  'integrations.title': 'Integrations',
  'integrations.discord.title': 'Discord',
  'integrations.discord.intro':
    'A Discord channel’s webhook: the organisation’s new tournaments and champions are posted there. Create one in the channel’s settings (“Integrations” → “Webhooks”) and paste its address here.',
  'integrations.discord.url': 'Discord webhook address',
  'integrations.discord.save': 'Save webhook',
  'integrations.discord.remove': 'Disconnect Discord',
  'integrations.discord.saved': 'Discord webhook saved: new tournaments and champions will appear in the channel',
  'integrations.discord.removed': 'Discord disconnected',
  'integrations.discord.connected': 'Connected: {url}',
  'integrations.discord.broken': 'Discord said this webhook no longer exists: save a new address',
  'integrations.discord.none': 'Discord is not connected',
  'integrations.discord.badUrl': 'This is not a Discord webhook address: it should look like https://discord.com/api/webhooks/…',
  'integrations.discord.notConnected': 'This organisation has no Discord connected',
  'integrations.discord.created': 'New {game} tournament: {date}. Sign up on the tournament’s page.',
  'integrations.discord.finished': 'The tournament is over.',
  'integrations.discord.champion': 'The tournament is over. The champion is {name}!',
  'integrations.discord.game': 'Game',
  'integrations.discord.footer': 'Kiberarena',
  'integrations.log.title': 'Delivery log',
  'integrations.log.empty': 'Nothing sent yet',
  'integrations.log.event.tournament.created': 'New tournament',
  'integrations.log.event.tournament.finished': 'Champion',
  'integrations.log.state.pending': 'Waiting',
  'integrations.log.state.sent': 'Sent',
  'integrations.log.state.failed': 'Failed',
  'integrations.log.attempts': 'Attempts: {count}',
  'integrations.error': 'Could not save. Please try again.',
};
