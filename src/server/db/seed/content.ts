import type { ApplicationStatus } from '../../../lib/domain/application-rules.ts';
import type { TournamentStatus } from '../../../lib/domain/tournament-status.ts';

/*
 * What the demo shows (seed.ts writes it): its games, players, teams, tournaments in every status
 * and news. Days count from the day the seed runs (negative: in the past).
 */

export const GAMES = [
  { slug: 'cs2', name: 'CS2' },
  { slug: 'valorant', name: 'Valorant' },
  { slug: 'lol', name: 'League of Legends' },
  { slug: 'dota2', name: 'Dota 2' },
  { slug: 'pubgm', name: 'PUBG Mobile' },
] as const;
export type GameSlug = (typeof GAMES)[number]['slug'];

/** Games an admin has set up statistics for (with their own templates); CS2 and LoL are left for the admin to try. */
export const STATS_GAMES = ['dota2', 'valorant'] as const satisfies readonly GameSlug[];

/** The first one joined today (the newest account); the others over the last three months. */
export const PLAYERS = [
  'KozakSniper',
  'Kyiv_Cyborg',
  'Hetman_AWP',
  's1mple_fan',
  'HopakHeadshot',
  'Stepan_Clutch',
  'DniproDragon',
  'ZaporizhRush',
  'SaloSlayer',
  'Tryzub_Tank',
  'Dnister_Flow',
  'LvivLion',
  'Karpaty_Wolf',
  'Mavka_Mid',
  'Lesya_Support',
  'Vyshyvanka_OP',
  'Bandura_Beats',
  'OdesaWave',
  'KharkivHawk',
  'PoltavaPro',
  'Chernihiv_Ghost',
  'BorschtBoss',
  'Ternopil_Tiger',
  'Sich_Raider',
  // The clans of the Dota 2 league.
  'Kharkiv_Hunter',
  'SlobodaSniper',
  'Lozova_Lynx',
  'Izium_Ice',
  'Chuhuiv_Chief',
  'Polissia_Owl',
  'Zhytomyr_Zen',
  'Korosten_Kid',
  'Ovruch_Oak',
  'Rivne_Ranger',
  'Berkut_Hover',
  'Hoverla_Peak',
  'Yaremche_Yeti',
  'Kolomyia_King',
  'Kosiv_Craft',
  'Dolphin_Dive',
  'Mykolaiv_Mast',
  'Ochakiv_Anchor',
  'Kinburn_Kite',
  'Vylkove_Venice',
  'Halushka_Hero',
  'Dykanka_Witch',
  'Myrhorod_Mud',
  'Reshetylivka',
  'Opishnia_Clay',
  'Tur_Tarnopil',
  'Zbarazh_Bastion',
  'Kremenets_Keep',
  'Pochaiv_Bell',
  'Berezhany_Bow',
  'Kavun_Kherson',
  'Hola_Prystan',
  'Kakhovka_Sun',
  'Oleshky_Sand',
  'Skadovsk_Surf',
  'Vedmid_Bukovyna',
  'Khotyn_Fortress',
  'Chernivtsi_Rose',
  'Prut_River',
  'Vyzhnytsia_Fox',
] as const;
export type Nick = (typeof PLAYERS)[number];

/** Captain first; every member (captain included) gets a team_members row. */
export const TEAMS: { name: string; logo?: number; members: Nick[] }[] = [
  { name: 'Київські Кіборги', logo: 1, members: ['Kyiv_Cyborg', 'KozakSniper', 'Hetman_AWP', 's1mple_fan', 'HopakHeadshot', 'Stepan_Clutch'] },
  { name: 'Dnipro Dragons', logo: 2, members: ['DniproDragon', 'ZaporizhRush', 'SaloSlayer', 'Tryzub_Tank', 'Dnister_Flow'] },
  { name: 'Львівські Леви', logo: 3, members: ['LvivLion', 'Karpaty_Wolf', 'Mavka_Mid', 'Lesya_Support', 'Vyshyvanka_OP', 'Bandura_Beats'] },
  { name: 'Odesa Storm', logo: 4, members: ['OdesaWave', 'KharkivHawk', 'PoltavaPro', 'Chernihiv_Ghost', 'BorschtBoss'] },
  { name: 'Харківські Хижаки', logo: 5, members: ['Kharkiv_Hunter', 'SlobodaSniper', 'Lozova_Lynx', 'Izium_Ice', 'Chuhuiv_Chief'] },
  { name: 'Polissia Owls', logo: 6, members: ['Polissia_Owl', 'Zhytomyr_Zen', 'Korosten_Kid', 'Ovruch_Oak', 'Rivne_Ranger'] },
  { name: 'Карпатські Беркути', members: ['Berkut_Hover', 'Hoverla_Peak', 'Yaremche_Yeti', 'Kolomyia_King', 'Kosiv_Craft'] },
  { name: 'Black Sea Dolphins', members: ['Dolphin_Dive', 'Mykolaiv_Mast', 'Ochakiv_Anchor', 'Kinburn_Kite', 'Vylkove_Venice'] },
  { name: 'Полтавські Галушки', members: ['Halushka_Hero', 'Dykanka_Witch', 'Myrhorod_Mud', 'Reshetylivka', 'Opishnia_Clay'] },
  { name: 'Тернопільські Тури', members: ['Tur_Tarnopil', 'Zbarazh_Bastion', 'Kremenets_Keep', 'Pochaiv_Bell', 'Berezhany_Bow'] },
  { name: 'Херсонські Кавуни', members: ['Kavun_Kherson', 'Hola_Prystan', 'Kakhovka_Sun', 'Oleshky_Sand', 'Skadovsk_Surf'] },
  { name: 'Буковинські Ведмеді', members: ['Vedmid_Bukovyna', 'Khotyn_Fortress', 'Chernivtsi_Rose', 'Prut_River', 'Vyzhnytsia_Fox'] },
];
export type TeamName = (typeof TEAMS)[number]['name'];

/** The captain of «Dnipro Dragons» has invited a free agent; the invite waits for an answer. */
export const INVITE = { team: 'Dnipro Dragons', player: 'Ternopil_Tiger' as Nick };

export type SoloEntry = [Nick, ApplicationStatus, string?];
export type TeamEntry = [TeamName, ApplicationStatus, string?];

export interface DemoTournament {
  key: string;
  title: string;
  description: string;
  game: GameSlug;
  /** Days from now; negative is in the past. */
  day: number;
  status: TournamentStatus;
  solo?: SoloEntry[];
  team?: TeamEntry[];
  /** Who wins the played bracket; declared the tournament's winner unless `undeclared`. */
  champion?: Nick | TeamName;
  undeclared?: boolean;
  /** A season league: a long run of recorded matches before its play-off. */
  league?: boolean;
  /** Match day (issue 22): starts this many hours from now instead of on `day`. */
  startsInHours?: number;
  maxParticipants?: number;
  /** Check-in on, its window open since a few minutes ago; these players have checked in. */
  checkedIn?: Nick[];
  /** Its own time zone (issue 57); each reader's own when absent. */
  timeZone?: string;
}

export const TOURNAMENTS: DemoTournament[] = [
  {
    key: 'cs2-dnipro-cup',
    title: 'Кубок Дніпра з CS2',
    description:
      'Командний турнір за олімпійською системою для збірних з усієї України. Матчі грали у форматі Bo1, фінал — Bo3 на картах з активного пулу. Переможці отримали кубок і місце у відборі на Київську лігу.',
    game: 'cs2',
    day: -55,
    status: 'finished',
    team: [
      ['Київські Кіборги', 'approved'],
      ['Dnipro Dragons', 'approved'],
      ['Львівські Леви', 'approved'],
      ['Odesa Storm', 'approved'],
    ],
    champion: 'Київські Кіборги',
  },
  {
    key: 'cs2-awp-kings',
    title: 'Соло-челендж «Королі AWP»',
    description:
      'Дуелі один на один лише зі снайперськими гвинтівками на aim-картах. Кожна зустріч триває до 16 перемог у раундах. Чудова нагода перевірити реакцію та точність.',
    game: 'cs2',
    day: -1,
    status: 'started',
    solo: [
      ['KozakSniper', 'approved'],
      ['Hetman_AWP', 'approved'],
      ['s1mple_fan', 'approved'],
      ['ZaporizhRush', 'approved'],
      ['KharkivHawk', 'approved'],
      ['Sich_Raider', 'approved'],
      ['SaloSlayer', 'approved'],
      ['Stepan_Clutch', 'approved'],
      ['BorschtBoss', 'rejected', 'Заявку подано після закриття реєстрації.'],
    ],
  },
  {
    key: 'cs2-kyiv-league',
    title: 'Київська ліга CS2: відбірковий етап',
    description:
      'Відбірковий етап головної ліги сезону для команд із п’яти–семи гравців. Двоє найкращих потраплять до фіналу, який відбудеться наживо в Києві. Реєстрація відкрита до початку турніру.',
    game: 'cs2',
    day: 21,
    status: 'pending',
    team: [
      ['Київські Кіборги', 'approved'],
      ['Dnipro Dragons', 'approved'],
      ['Львівські Леви', 'approved'],
      ['Odesa Storm', 'approved'],
    ],
  },
  {
    key: 'valorant-night-league',
    title: 'Нічна ліга Valorant',
    description:
      'Соло-турнір для тих, хто найкраще грає після опівночі: дуелі на картах у режимі «один на один». Призери отримали пам’ятні значки профілю. Дякуємо всім учасникам за чесну гру!',
    game: 'valorant',
    day: -40,
    status: 'finished',
    solo: [
      ['HopakHeadshot', 'approved'],
      ['Mavka_Mid', 'approved'],
      ['OdesaWave', 'approved'],
      ['Chernihiv_Ghost', 'approved'],
      ['Karpaty_Wolf', 'approved'],
      ['Dnister_Flow', 'approved'],
      ['PoltavaPro', 'rejected', 'Акаунт у грі не відповідає вказаному в профілі.'],
    ],
    champion: 'HopakHeadshot',
  },
  {
    key: 'valorant-carpathian-cup',
    title: 'Кубок Карпат з Valorant',
    description:
      'Командний турнір у форматі подвійного вибування з картами на вибір капітанів. Переможець отримає запрошення на фестиваль кіберспорту у Львові. Заявки приймаються лише від повних складів.',
    game: 'valorant',
    day: 35,
    status: 'pending',
    team: [
      ['Львівські Леви', 'approved'],
      ['Київські Кіборги', 'approved'],
      ['Odesa Storm', 'pending'],
      ['Dnipro Dragons', 'rejected', 'Склад команди змінився після реєстрації.'],
    ],
  },
  {
    key: 'valorant-duel-sprint',
    title: 'Valorant Duel Cup: вечірній спринт',
    description:
      'Швидкий соло-турнір на один вечір для гравців з України й Польщі: дуелі до 13 раундів, фінал до двох перемог. Увесь розклад — за варшавським часом. Підходить і досвідченим гравцям, і тим, хто тільки пробує себе у змаганнях.',
    game: 'valorant',
    day: 10,
    timeZone: 'Europe/Warsaw',
    status: 'pending',
    solo: [
      ['HopakHeadshot', 'approved'],
      ['Mavka_Mid', 'approved'],
      ['KozakSniper', 'approved'],
      ['Ternopil_Tiger', 'approved'],
      ['Lesya_Support', 'approved'],
      ['Vyshyvanka_OP', 'approved'],
      ['s1mple_fan', 'pending'],
      ['Tryzub_Tank', 'pending'],
      ['Bandura_Beats', 'rejected', 'Нікнейм у грі не збігається з профілем.'],
    ],
  },
  {
    key: 'lol-first-season',
    title: 'Ліга Легенд України: перший сезон',
    description:
      'Завершальний етап командного сезону з League of Legends. Команди зіграли груповий етап і плей-оф у форматі Bo3. Чемпіоном стали «Львівські Леви», які не програли жодної серії.',
    game: 'lol',
    day: -30,
    status: 'finished',
    team: [
      ['Львівські Леви', 'approved'],
      ['Odesa Storm', 'approved'],
      ['Dnipro Dragons', 'approved'],
    ],
    champion: 'Львівські Леви',
  },
  {
    key: 'lol-spring-cup',
    title: 'Весняний кубок LoL',
    description:
      'Другий етап шкільної ліги з League of Legends: чотири команди, олімпійська система, серії Bo3. Очки за місця йдуть у загальну таблицю сезону, лідери якої зіграють у фіналі наживо.',
    game: 'lol',
    day: -14,
    status: 'finished',
    team: [
      ['Odesa Storm', 'approved'],
      ['Dnipro Dragons', 'approved'],
      ['Харківські Хижаки', 'approved'],
      ['Polissia Owls', 'approved'],
    ],
    champion: 'Odesa Storm',
  },
  {
    key: 'lol-aram-night',
    title: 'ARAM-тиждень для новачків',
    description:
      'Дружній соло-турнір у режимі ARAM з випадковими чемпіонами, матчі якого тривають цілий тиждень. Головне тут — отримати задоволення і познайомитися з новими тіммейтами. Досвід у рейтингових іграх не потрібен.',
    game: 'lol',
    day: -3,
    status: 'started',
    solo: [
      ['Lesya_Support', 'approved'],
      ['Mavka_Mid', 'approved'],
      ['Bandura_Beats', 'approved'],
      ['PoltavaPro', 'approved'],
      ['Karpaty_Wolf', 'approved'],
    ],
  },
  {
    key: 'lol-slobozhanshchyna',
    title: 'Чемпіонат Слобожанщини з LoL',
    description:
      'Регіональний командний чемпіонат, відкритий для команд з усієї країни. Груповий етап пройде онлайн, а фінальні матчі транслюватимуться з коментарями. Реєстрація вже відкрита.',
    game: 'lol',
    day: 58,
    status: 'pending',
    team: [
      ['Харківські Хижаки', 'approved'],
      ['Polissia Owls', 'approved'],
      ['Odesa Storm', 'pending'],
    ],
  },
  {
    key: 'dota-cossack-battle',
    title: 'Козацька битва з Dota 2',
    description:
      'Командний турнір у режимі Captains Mode для чотирьох найсильніших складів платформи. Ігри проходять щовечора, фінал — Bo5. Слідкуйте за турнірною сіткою, щоб не пропустити вирішальні матчі.',
    game: 'dota2',
    day: 0,
    status: 'started',
    team: [
      ['Dnipro Dragons', 'approved'],
      ['Odesa Storm', 'approved'],
      ['Київські Кіборги', 'approved'],
      ['Львівські Леви', 'approved'],
    ],
  },
  {
    key: 'lol-evening-check-in',
    title: 'Вечірній кубок LoL: підтвердіть участь',
    description:
      'Соло-турнір на вісім місць сьогодні ввечері: заявки понад ліміт стають у чергу очікування. Підтвердіть участь до початку — хто не встигне, поступиться місцем першому з черги. Рахунок матчів учасники вносять самі, суперник підтверджує.',
    game: 'lol',
    day: 0,
    startsInHours: 3,
    status: 'pending',
    maxParticipants: 8,
    solo: [
      ['OdesaWave', 'approved'],
      ['LvivLion', 'approved'],
      ['Mavka_Mid', 'approved'],
      ['Hetman_AWP', 'approved'],
      ['KozakSniper', 'approved'],
      ['KharkivHawk', 'approved'],
      ['ZaporizhRush', 'approved'],
      ['SaloSlayer', 'approved'],
      ['Stepan_Clutch', 'waitlisted'],
      ['BorschtBoss', 'waitlisted'],
    ],
    checkedIn: ['OdesaWave', 'LvivLion', 'Mavka_Mid', 'Hetman_AWP'],
  },
  {
    key: 'dota-mid-duel',
    title: 'Мід 1×1: Дуель козаків',
    description:
      'Класичні дуелі на центральній лінії: перемагає той, хто першим здобуде два вбивства або зруйнує вежу. Обидва гравці беруть одного героя. Ідеальний турнір, щоб показати механіку.',
    game: 'dota2',
    day: 14,
    status: 'pending',
    solo: [
      ['Dnister_Flow', 'approved'],
      ['Sich_Raider', 'approved'],
      ['Tryzub_Tank', 'approved'],
      ['Chernihiv_Ghost', 'approved'],
      ['BorschtBoss', 'approved'],
      ['SaloSlayer', 'pending'],
      ['Ternopil_Tiger', 'pending'],
      ['KozakSniper', 'pending'],
    ],
  },
  {
    key: 'dota-opening-cup',
    title: 'Кубок відкриття з Dota 2',
    description:
      'Соло-турнір у режимі «All Pick 1×1», що відкрив сезон на платформі. Усі матчі зіграно, залишилося лише оголосити переможця. Дякуємо всім, хто долучився!',
    game: 'dota2',
    day: -58,
    status: 'finished',
    solo: [
      ['DniproDragon', 'approved'],
      ['Tryzub_Tank', 'approved'],
      ['Sich_Raider', 'approved'],
      ['Dnister_Flow', 'approved'],
    ],
    champion: 'Sich_Raider',
    undeclared: true,
  },
  {
    key: 'dota-ranked-duels',
    title: 'Рейтингові дуелі Dota 2: сезон',
    description:
      'Сезон рейтингових дуелей один на один: щодня кожен учасник грає з суперником, близьким за рейтингом, а найкращі зустрічаються в плей-оф. Таблиця лідерів оновлюється після кожного матчу.',
    game: 'dota2',
    day: -45,
    status: 'started',
    league: true,
    solo: [
      ['Sich_Raider', 'approved'],
      ['Dnister_Flow', 'approved'],
      ['DniproDragon', 'approved'],
      ['Mavka_Mid', 'approved'],
      ['KozakSniper', 'approved'],
      ['Tryzub_Tank', 'approved'],
      ['Chernihiv_Ghost', 'approved'],
      ['LvivLion', 'approved'],
      ['OdesaWave', 'approved'],
      ['BorschtBoss', 'approved'],
      ['ZaporizhRush', 'approved'],
      ['Hetman_AWP', 'approved'],
    ],
  },
  {
    key: 'dota-clan-league',
    title: 'Ліга козацьких кланів з Dota 2',
    description:
      'Командна ліга сезону: дванадцять кланів грають між собою протягом півтора місяця, а вісім найкращих виходять у плей-оф за олімпійською системою. Рейтинг команд — на сторінці «Топи».',
    game: 'dota2',
    day: -45,
    status: 'started',
    league: true,
    team: [
      ['Львівські Леви', 'approved'],
      ['Київські Кіборги', 'approved'],
      ['Харківські Хижаки', 'approved'],
      ['Odesa Storm', 'approved'],
      ['Карпатські Беркути', 'approved'],
      ['Dnipro Dragons', 'approved'],
      ['Polissia Owls', 'approved'],
      ['Black Sea Dolphins', 'approved'],
      ['Тернопільські Тури', 'approved'],
      ['Полтавські Галушки', 'approved'],
      ['Буковинські Ведмеді', 'approved'],
      ['Херсонські Кавуни', 'approved'],
    ],
  },
  // Stage formats of circuits (issue 59, seed/formats.ts): drawn and played through the services.
  {
    key: 'cs2-swiss-major',
    title: 'Aim Major з CS2: швейцарський етап',
    description:
      'Шістнадцять снайперів грають за правилами мейджорів Valve: три перемоги виводять у плей-оф, три поразки вибивають. Суперників добирають за рекордом і складністю, вирішальні матчі — до двох перемог (Bo3).',
    game: 'cs2',
    day: -2,
    status: 'pending',
    solo: [
      ['KozakSniper', 'approved'],
      ['Hetman_AWP', 'approved'],
      ['s1mple_fan', 'approved'],
      ['HopakHeadshot', 'approved'],
      ['Stepan_Clutch', 'approved'],
      ['DniproDragon', 'approved'],
      ['ZaporizhRush', 'approved'],
      ['SaloSlayer', 'approved'],
      ['Tryzub_Tank', 'approved'],
      ['LvivLion', 'approved'],
      ['Karpaty_Wolf', 'approved'],
      ['OdesaWave', 'approved'],
      ['KharkivHawk', 'approved'],
      ['PoltavaPro', 'approved'],
      ['Chernihiv_Ghost', 'approved'],
      ['Sich_Raider', 'approved'],
    ],
  },
  {
    key: 'dota-gsl-mid',
    title: 'Мід-дуелі Dota 2: групи GSL',
    description:
      'Вісім мідерів у двох групах GSL: стартові матчі, матч переможців, матч на виліт і вирішальний. Двоє найкращих з кожної групи виходять у плей-оф.',
    game: 'dota2',
    day: -1,
    status: 'pending',
    solo: [
      ['Mavka_Mid', 'approved'],
      ['Dnister_Flow', 'approved'],
      ['Kharkiv_Hunter', 'approved'],
      ['SlobodaSniper', 'approved'],
      ['Lozova_Lynx', 'approved'],
      ['Izium_Ice', 'approved'],
      ['Polissia_Owl', 'approved'],
      ['Zhytomyr_Zen', 'approved'],
    ],
  },
  {
    key: 'pubgm-solo-cup',
    title: 'PUBG Mobile: соло-кубок Ерангеля',
    description:
      'Шістнадцять гравців у двох лобі по вісім: три ігри, очки за місце (10, 6, 5, 4, 3, 2, 1, 1) і по одному за кожне вбивство. Четверо найкращих з кожного лобі грають фінальне лобі.',
    game: 'pubgm',
    day: -1,
    status: 'pending',
    solo: [
      ['Berkut_Hover', 'approved'],
      ['Hoverla_Peak', 'approved'],
      ['Yaremche_Yeti', 'approved'],
      ['Kolomyia_King', 'approved'],
      ['Kosiv_Craft', 'approved'],
      ['Dolphin_Dive', 'approved'],
      ['Mykolaiv_Mast', 'approved'],
      ['Ochakiv_Anchor', 'approved'],
      ['Kinburn_Kite', 'approved'],
      ['Vylkove_Venice', 'approved'],
      ['Halushka_Hero', 'approved'],
      ['Dykanka_Witch', 'approved'],
      ['Myrhorod_Mud', 'approved'],
      ['Reshetylivka', 'approved'],
      ['Opishnia_Clay', 'approved'],
      ['Tur_Tarnopil', 'approved'],
    ],
  },
];

export const NEWS = [
  {
    day: -1,
    title: 'Відкрито реєстрацію на Київську лігу CS2',
    content:
      'Стартувала реєстрація на відбірковий етап Київської ліги CS2. Подати заявку може капітан команди, у складі якої від п’яти до семи гравців. Двоє найкращих колективів зіграють у фіналі наживо в Києві. Не зволікайте: кількість місць у сітці обмежена.',
    imageUrl: '/news/1.jpg',
  },
  {
    day: -5,
    title: 'Як подати командну заявку: коротка інструкція',
    content:
      'Створіть команду у вкладці «Команда» і запросіть друзів за нікнеймом. Коли у складі буде від п’яти до семи гравців, капітан зможе подати заявку на командний турнір. Після схвалення адміністратором команда з’явиться у списку учасників. Статус заявки можна стежити у сповіщеннях.',
  },
  {
    day: -10,
    title: 'Оновлення платформи: сповіщення та командний чат',
    content:
      'Ми оновили Кіберарену! Тепер про схвалення заявок і запрошення до команд ви дізнаєтеся зі сповіщень у дзвіночку. У вкладці команди з’явився чат, де можна обговорити тактику перед матчем. Чекаємо на ваші відгуки та пропозиції.',
    imageUrl: '/news/2.jpg',
  },
  {
    day: -16,
    title: 'Поради від чемпіонів: як готуватися до турніру',
    content:
      'Переможці Нічної ліги Valorant поділилися секретами підготовки. Найголовніше — стабільний режим сну і розминка в aim-тренажері перед кожною грою. Варто заздалегідь домовитися з командою про ролі та комунікацію. І не забувайте робити перерви між матчами.',
  },
  {
    day: -22,
    title: 'Кіберспорт в Україні: від LAN-клубів до світових арен',
    content:
      'Українські гравці багато років входять до світової еліти кіберспорту. Усе починалося з комп’ютерних клубів і локальних турнірів у великих містах. Сьогодні онлайн-платформи дають змогу змагатися кожному, хто має бажання й наполегливість. Більше про історію кіберспорту читайте за посиланням.',
    link: 'https://uk.wikipedia.org/wiki/%D0%9A%D1%96%D0%B1%D0%B5%D1%80%D1%81%D0%BF%D0%BE%D1%80%D1%82',
  },
  {
    day: -29,
    title: '«Львівські Леви» — чемпіони першого сезону LoL',
    content:
      'Команда «Львівські Леви» виграла Лігу Легенд України, не програвши жодної серії. У фіналі вони впевнено обіграли «Odesa Storm» з рахунком 2:0. Вітаємо чемпіонів і чекаємо на реванш у новому сезоні!',
    imageUrl: '/news/3.jpg',
    archived: true,
  },
];
