/** What the competition engine's API answers (issue 21): stages created, results saved, refusals. */
export const competition = {
  "stage.created": "Етап створено: {participants}",
  "stage.notFound": "Етап не знайдено",
  "stage.finished": "Турнір завершено: його етапи вже не змінюються",
  "stage.manualParticipants":
    "Для ручного посіву вкажіть кожного учасника етапу рівно один раз",
  "stage.fromNotFound": "Попередній етап не знайдено в цьому турнірі",
  "stage.fromNotComplete":
    "Попередній етап ще не завершено: спершу зіграйте всі його матчі",
  "stage.advanceTooFew": "З попереднього етапу проходить менше двох учасників",
  "stage.tooMany": "В етапі може бути щонайбільше {max} учасників",
  "stage.thirdPlaceNeedsFour":
    "Матч за третє місце можливий лише з 4 учасників",
  "stage.nextRound": "Тур {round} складено",
  "stage.notSwiss": "Наступний тур складається лише у швейцарській системі",
  "stage.roundNotComplete":
    "Поточний тур ще не завершено: спершу внесіть усі результати",
  "stage.allRoundsPlayed": "Усі тури цього етапу вже зіграно",
  "stage.disqualified":
    "Учасника дискваліфіковано: решту його матчів зараховано суперникам",
  "stage.notParticipant": "Цей учасник не грає в етапах турніру",
  "stage.alreadyDisqualified": "Цього учасника вже дискваліфіковано",
  "match.notFound": "Матч не знайдено",
  "match.saved": "Результат збережено",
  "match.updated": "Матч оновлено",
  "match.reset": "Результат скасовано",
  "match.preview": "Зміна скине результати {count}",
  "match.stale": "Матч уже змінив інший адміністратор. Показано новішу версію.",
  "match.notReady":
    "Суперники в матчі ще невідомі: результат вносять, коли обидва відомі",
  "match.bye": "Це автоматичний прохід: у ньому немає результату",
  "match.noResult": "У матчу ще немає результату",
  "match.result.noScore": "Вкажіть рахунок обох сторін",
  "match.result.draw": "Нічия можлива лише в круговій і швейцарській системах",
  "match.result.bestOf":
    "Рахунок не відповідає формату: матч до {wins} перемог",
  "match.result.gameDraw": "Гра не може завершитися внічию",
  "match.result.gamesAfterDecided":
    "Після вирішальної гри інших ігор бути не може",
  "match.result.gamesMismatch": "Рахунок матчу не збігається з рахунками ігор",
  "match.result.tooManyGames":
    "Ігор більше, ніж передбачає формат (Bo{bestOf})",
  "count.matchResults.one": "{count} матчу",
  "count.matchResults.few": "{count} матчів",
  "count.matchResults.many": "{count} матчів",
  "count.matchResults.other": "{count} матчу",
} as const;
