import type { AchievementDefinition, AchievementRarity, StatCategory, StatFieldDefinition, StatFieldType, StatsTemplate } from './stat-fields.ts';

export interface StatsTemplateDefinition {
  statsFields: readonly StatFieldDefinition[];
  gameAchievements: readonly AchievementDefinition[];
}

/** The game each popular template sets up by «Налаштувати популярні ігри»: its name and picture. */
export const POPULAR_GAMES: Record<Exclude<StatsTemplate, 'default'>, { name: string; image: string }> = {
  cs2: { name: 'CS2', image: '/games/cs2.jpg' },
  valorant: { name: 'Valorant', image: '/games/valorant.jpg' },
  lol: { name: 'League of Legends', image: '/games/lol.jpg' },
  dota2: { name: 'Dota 2', image: '/games/dota2.jpg' },
};

const field = (
  fieldName: string,
  displayName: string,
  category: StatCategory,
  icon: string,
  description: string,
  options: { main?: boolean; type?: StatFieldType } = {},
): StatFieldDefinition => ({
  fieldName,
  displayName,
  fieldType: options.type ?? 'number',
  category,
  isMainStat: options.main ?? false,
  description,
  icon,
});

const achievement = (name: string, description: string, condition: string, rarity: AchievementRarity, icon: string): AchievementDefinition => ({
  name,
  description,
  condition,
  icon,
  rarity,
});

const kills = (main = true) => field('kills', 'Вбивства', 'combat', '⚔️', 'Суперників, знищених за матч', { main });
const deaths = (main = true) => field('deaths', 'Смерті', 'combat', '💀', 'Скільки разів гравця знищили за матч', { main });
const assists = (main = false) => field('assists', 'Допомоги', 'support', '🤝', 'Участь у вбивствах, зроблених союзниками', { main });

const firstWin = achievement('First Victory', 'Перша перемога в цій грі', 'wins >= 1', 'common', '🥇');

/**
 * The stat fields and achievements each template creates (SPEC §7 POST /game-management/setup).
 * Their texts are stored in Ukrainian; each needs its English in lib/i18n/stat-templates-en.ts,
 * which pages read through lib/i18n/stat-texts.ts (a unit test fails when one is missing).
 *
 * Conditions are written against a competitor's running totals of the game's fields plus the
 * aggregates (`matchesPlayed`, `wins`, `losses`, `winRate`, `currentStreak`, `rating`). A field
 * that is a per-match average (ADR, ACS, GPM, XPM) adds up over matches too, so «average at least
 * N» reads `field >= N * matchesPlayed`, with a minimum number of matches so one game is not enough.
 */
export const STATS_TEMPLATE_DEFINITIONS: Record<StatsTemplate, StatsTemplateDefinition> = {
  default: {
    statsFields: [
      field('score', 'Очки', 'general', '⭐', 'Очки, набрані за матч', { main: true }),
      kills(),
      deaths(false),
      assists(),
      field('objectives', 'Виконані цілі', 'objective', '🎯', 'Захоплені точки, знищені споруди чи інші цілі матчу'),
    ],
    gameAchievements: [
      firstWin,
      achievement('Veteran', 'Зіграти 50 матчів', 'matchesPlayed >= 50', 'rare', '🎖️'),
      achievement('Centurion', 'Набрати 100 вбивств', 'kills >= 100', 'rare', '⚔️'),
      achievement('Hot Streak', 'Виграти 5 матчів поспіль', 'currentStreak >= 5', 'epic', '🔥'),
      achievement('Champion', 'Досягти рейтингу 1500 (Експерт)', 'rating >= 1500', 'legendary', '👑'),
    ],
  },
  cs2: {
    statsFields: [
      kills(),
      deaths(),
      assists(),
      field('headshots', 'Постріли в голову', 'combat', '🎯', 'Вбивства пострілом у голову'),
      field('adr', 'ADR', 'combat', '💥', 'Середня шкода за раунд (average damage per round)', { main: true }),
      field('mvps', 'MVP раундів', 'general', '⭐', 'Скільки разів гравець ставав найкращим у раунді'),
      field('bombPlants', 'Встановлення бомби', 'objective', '💣', 'Скільки разів гравець встановив бомбу'),
      field('bombDefuses', 'Знешкодження бомби', 'objective', '🔧', 'Скільки разів гравець знешкодив бомбу'),
      field('clutches', 'Виграні клатчі', 'combat', '🧊', 'Раунди, виграні наодинці проти кількох суперників'),
      field('utilityDamage', 'Шкода гранатами', 'support', '🧨', 'Шкода від гранат і коктейлів Молотова'),
      field('moneySpent', 'Витрачено грошей', 'economy', '💰', 'Гроші, витрачені на зброю та спорядження'),
    ],
    gameAchievements: [
      firstWin,
      achievement('Headhunter', 'Зробити 250 вбивств пострілом у голову', 'headshots >= 250', 'rare', '🎯'),
      achievement('Bomb Specialist', 'Встановити бомбу 50 разів', 'bombPlants >= 50', 'rare', '💣'),
      achievement('Ninja Defuser', 'Знешкодити бомбу 25 разів', 'bombDefuses >= 25', 'rare', '🔧'),
      achievement('Most Valuable', 'Стати MVP раунду 100 разів', 'mvps >= 100', 'epic', '⭐'),
      achievement('Damage Dealer', 'Середній ADR 100+ щонайменше за 10 матчів', 'matchesPlayed >= 10 and adr >= 100 * matchesPlayed', 'epic', '💥'),
      achievement('Clutch Master', 'Виграти 20 клатчів', 'clutches >= 20', 'epic', '🧊'),
      achievement('Untouchable', 'Щонайменше 100 вбивств і вдесятеро більше вбивств, ніж смертей', 'kills >= 100 and kills >= 10 * max(deaths, 1)', 'legendary', '🛡️'),
      achievement('Global Elite', 'Досягти рейтингу 2000 (Легенда)', 'rating >= 2000', 'legendary', '👑'),
    ],
  },
  valorant: {
    statsFields: [
      kills(),
      deaths(),
      assists(),
      field('firstBloods', 'Перші вбивства', 'combat', '🩸', 'Перше вбивство раунду'),
      field('acs', 'ACS', 'combat', '📈', 'Середній бойовий рахунок за раунд (average combat score)', { main: true }),
      field('headshots', 'Постріли в голову', 'combat', '🎯', 'Влучання в голову'),
      field('spikePlants', 'Встановлення спайка', 'objective', '💣', 'Скільки разів гравець встановив спайк'),
      field('spikeDefuses', 'Знешкодження спайка', 'objective', '🔧', 'Скільки разів гравець знешкодив спайк'),
      field('clutches', 'Виграні клатчі', 'combat', '🧊', 'Раунди, виграні наодинці проти кількох суперників'),
      field('econRating', 'Економічний рейтинг', 'economy', '💰', 'Шкода на кожну 1000 витрачених кредитів'),
    ],
    gameAchievements: [
      firstWin,
      achievement('Entry Fragger', 'Зробити 50 перших вбивств раунду', 'firstBloods >= 50', 'rare', '🩸'),
      achievement('Spike Carrier', 'Встановити спайк 40 разів', 'spikePlants >= 40', 'rare', '💣'),
      achievement('Defuser', 'Знешкодити спайк 20 разів', 'spikeDefuses >= 20', 'rare', '🔧'),
      achievement('Radiant Aim', 'Влучити в голову 300 разів', 'headshots >= 300', 'epic', '🎯'),
      achievement('Combat Leader', 'Середній ACS 250+ щонайменше за 10 матчів', 'matchesPlayed >= 10 and acs >= 250 * matchesPlayed', 'epic', '📈'),
      achievement('Ace Streak', 'Виграти 10 матчів поспіль', 'currentStreak >= 10', 'legendary', '🔥'),
    ],
  },
  lol: {
    statsFields: [
      kills(),
      deaths(),
      assists(true),
      field('cs', 'Добиті міньйони (CS)', 'economy', '🌾', 'Міньйони й нейтральні монстри, добиті гравцем', { main: true }),
      field('visionScore', 'Рахунок огляду', 'support', '👁️', 'Внесок у огляд карти: варди, їх знищення'),
      field('goldEarned', 'Зароблене золото', 'economy', '💰', 'Золото, зароблене за матч'),
      field('damageDealt', 'Шкода чемпіонам', 'combat', '💥', 'Шкода, завдана ворожим чемпіонам'),
      field('dragons', 'Дракони', 'objective', '🐉', 'Дракони, вбиті командою гравця'),
      field('barons', 'Барони', 'objective', '👾', 'Барони Нашори, вбиті командою гравця'),
      field('towersDestroyed', 'Зруйновані башти', 'objective', '🏰', 'Ворожі башти, в руйнуванні яких брав участь гравець'),
    ],
    gameAchievements: [
      firstWin,
      achievement('Farmer', 'Добити 5000 міньйонів', 'cs >= 5000', 'rare', '🌾'),
      achievement('Visionary', 'Набрати 1000 очок огляду', 'visionScore >= 1000', 'rare', '👁️'),
      achievement('Team Player', 'Зробити 500 допомог', 'assists >= 500', 'rare', '🤝'),
      achievement('Dragon Slayer', 'Вбити 25 драконів', 'dragons >= 25', 'epic', '🐉'),
      achievement('Baron Hunter', 'Вбити 10 баронів', 'barons >= 10', 'epic', '👾'),
      achievement('Gold Rush', 'Заробити 500 000 золота', 'goldEarned >= 500000', 'epic', '💰'),
      achievement('Challenger', 'Рейтинг 2000+ і понад 60% перемог', 'rating >= 2000 and winRate > 60', 'legendary', '👑'),
    ],
  },
  dota2: {
    statsFields: [
      kills(),
      deaths(),
      assists(),
      field('lastHits', 'Добивання', 'economy', '🗡️', 'Крипи, добиті гравцем', { main: true }),
      field('denies', 'Заперечення', 'economy', '🚫', 'Власні крипи, добиті, щоб суперник не отримав золото'),
      field('gpm', 'GPM', 'economy', '💰', 'Золото за хвилину (gold per minute)', { main: true }),
      field('xpm', 'XPM', 'general', '📚', 'Досвід за хвилину (experience per minute)'),
      field('heroDamage', 'Шкода героям', 'combat', '💥', 'Шкода, завдана ворожим героям'),
      field('towerDamage', 'Шкода будівлям', 'objective', '🏰', 'Шкода, завдана ворожим баштам і будівлям'),
      field('heroHealing', 'Лікування', 'support', '💚', 'Здоровʼя, відновлене союзним героям'),
    ],
    gameAchievements: [
      firstWin,
      achievement('Last Hit Master', 'Добити 10 000 крипів', 'lastHits >= 10000', 'rare', '🗡️'),
      achievement('Denier', 'Зробити 1000 заперечень', 'denies >= 1000', 'rare', '🚫'),
      achievement('Healer', 'Вилікувати союзникам 50 000 здоровʼя', 'heroHealing >= 50000', 'rare', '💚'),
      achievement('Rich Hero', 'Середній GPM 600+ щонайменше за 10 матчів', 'matchesPlayed >= 10 and gpm >= 600 * matchesPlayed', 'epic', '💰'),
      achievement('Fast Learner', 'Середній XPM 700+ щонайменше за 10 матчів', 'matchesPlayed >= 10 and xpm >= 700 * matchesPlayed', 'epic', '📚'),
      achievement('Siege Engine', 'Завдати будівлям 100 000 шкоди', 'towerDamage >= 100000', 'epic', '🏰'),
      achievement('Divine', 'Досягти рейтингу 2000 (Легенда)', 'rating >= 2000', 'legendary', '👑'),
    ],
  },
};
