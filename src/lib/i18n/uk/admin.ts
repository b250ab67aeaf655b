export const admin = {
  'admin.title': 'Адмін-панель',
  'admin.tournamentsTitle': 'Керування турнірами',
  'admin.only': 'доступ лише для адміністратора',
  'admin.checking': 'Перевіряємо доступ...',
  'admin.sections': 'Розділи адмін-панелі',
  'admin.section.applications': 'Заявки',
  'admin.section.tournaments': 'Турніри',
  'admin.section.results': 'Результати матчів',
  'admin.section.games': 'Ігри та статистика',
  'admin.section.news': 'Новини',
  'admin.tournamentList': 'Список турнірів',
  'admin.welcome': 'Вітаємо, {name}! Тут зʼявляться панелі керування.',
} as const;
