/** Letters the server sends (src/server/mail/letters.ts), in the language of the request that caused them. */
export const mail = {
  'mail.ignore': 'Якщо ви не реєструвалися на Кіберарені, просто проігноруйте цей лист.',
  'mail.confirm.subject': 'Підтвердіть пошту на Кіберарені',
  'mail.confirm.lead': 'Вітаємо, {username}! Щоб увійти на Кіберарену, підтвердіть свою пошту.',
  'mail.confirm.action': 'Підтвердити пошту',
  'mail.emailChange.subject': 'Підтвердіть нову пошту на Кіберарені',
  'mail.emailChange.lead': '{username}, ви змінили адресу пошти на Кіберарені. Підтвердіть нову адресу.',
  'mail.emailChange.action': 'Підтвердити адресу',
  'mail.emailInUse.subject': 'Хтось спробував використати вашу пошту на Кіберарені',
  'mail.emailInUse.lead':
    'Хтось указав цю адресу як нову пошту для іншого акаунта на Кіберарені. Її вже має ваш акаунт, тому нічого не змінено. Якщо це були ви, увійдіть у свій акаунт.',
  'mail.emailInUse.action': 'Увійти',
} as const;
