export const admin = {
  'admin.title': 'Адмін-панель',
  'admin.tournamentsTitle': 'Керування турнірами',
  'admin.only': 'доступ лише для адміністратора',
  'admin.checking': 'Перевіряємо доступ...',
  'admin.welcome': 'Вітаємо, {name}! Тут зʼявляться панелі керування.',
} as const;
