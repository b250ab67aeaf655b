/** Share cards and embeds (issue 23): the words drawn into the Open Graph pictures, the embed pages and the tournament's embed code. */
export const share = {
  'share.kind.tournament': 'Турнір',
  'share.kind.match': 'Матч',
  'share.kind.news': 'Новини',
  'share.kind.player': 'Гравець',
  'share.champion': 'Чемпіон: {name}',
  'share.bestRating': 'Рейтинг {rating} · {rank}',
  'share.ratingGame': 'у грі {game}',
  'share.noRating': 'Ще без рейтингу',
  'share.teams': 'Команди: {names}',
  'share.noTeams': 'Без команди',
  'share.imageAlt': 'Картка для поширення: {title}',

  'embed.newTab': '(відкривається в новій вкладці)',
  'embed.tournamentTitle': 'Сітка турніру «{name}»',
  'embed.matchTitle': 'Матч: {a} проти {b}',
  'embed.snippetTitle': 'Вбудувати сітку на свій сайт',
  'embed.snippetHint': 'Вставте цей код у сторінку свого сайту: сітка оновлюватиметься наживо. Мова — параметр lang (uk або en), світла тема — theme=light.',
  'embed.snippetLabel': 'Код для вставлення',
  'embed.copy': 'Копіювати код',
  'embed.copied': 'Код скопійовано',
  'embed.copyFailed': 'Не вдалося скопіювати: виділіть код і скопіюйте вручну',
} as const;
