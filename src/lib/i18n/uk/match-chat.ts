/** A match's chat (issue 58): its refusal, the room's chat panel. The team chat's words (chat.*) serve where they fit. */
export const matchChat = {
  'matchChat.outsider': 'Чат матчу читають і пишуть лише гравці його сторін і організатори турніру',
  'matchChat.title': 'Чат матчу',
  'matchChat.log': 'Повідомлення чату матчу',
  'matchChat.empty': 'Повідомлень ще немає. Тут сторони й організатори домовляються про гру.',
  'matchChat.organiser': 'Організатор',
  'matchChat.inputLabel': 'Повідомлення в чат матчу',
  'matchChat.placeholder': 'Напишіть суперникам або організаторам…',
} as const;
