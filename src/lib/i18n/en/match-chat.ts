import type { matchChat as uk } from '../uk/match-chat.ts';

/** A match's chat (issue 58): its refusal, the room's chat panel. */
export const matchChat: Record<keyof typeof uk, string> = {
  'matchChat.outsider': "Only the players of the match's sides and the tournament's organisers read and write its chat",
  'matchChat.title': 'Match chat',
  'matchChat.log': 'Messages of the match chat',
  'matchChat.empty': 'No messages yet. Here the sides and the organisers agree on the game.',
  'matchChat.organiser': 'Organiser',
  'matchChat.inputLabel': 'Message to the match chat',
  'matchChat.placeholder': 'Write to your opponents or the organisers…',
};
