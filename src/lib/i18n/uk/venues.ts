/** Organisers' venue networks (issue 57, decision 035): the organisers' desk, the admin's section, refusals, notices, the audit log. */
export const venues = {
  'admin.section.venues': 'Мережі залів',

  // The organisers' desk in the control room.
  'venues.title': 'Мережа зали',
  'venues.hint':
    'Гравці в залі часто мають одну спільну адресу. Назвіть адреси зали (IP або мережі CIDR): коли адміністратор сайту схвалить, з {from} до {until} реєстрації, листи й трансляції з них не обмежуватиме ліміт на адресу — лише ліміти пристрою й акаунта.',
  'venues.networks': 'IP-адреси або мережі зали (через кому, до {max})',
  'venues.networksHint': 'Наприклад, 203.0.113.7 чи 192.168.50.0/24',
  'venues.note': 'Назва зали',
  'venues.ask': 'Надіслати на схвалення',
  'venues.asking': 'Надсилаємо…',
  'venues.withdraw': 'Відкликати',
  'venues.withdrawConfirm': 'Відкликати мережу зали «{note}»? Якщо її схвалено, ліміт на адресу знову діятиме одразу.',
  'venues.closed': 'Турнір уже минув: мережа зали більше не потрібна.',
  'venues.loadError': 'Не вдалося завантажити мережу зали',
  'venues.failed': 'Не вдалося: {message}',
  'venues.status.pending': 'Чекає на схвалення адміністратора',
  'venues.status.approved': 'Схвалено',
  'venues.status.refused': 'Відхилено',
  'venues.status.withdrawn': 'Відкликано',
  'venues.inEffect': 'Діє зараз',
  'venues.window': 'Діє з {from} до {until}',
  'venues.requestedBy': 'Попросив {name} · {time}',
  'venues.decidedBy': 'Вирішив {name} · {time}',
  'venues.askAgain': 'Можна попросити знову з іншими адресами.',

  // The admin's section.
  'venues.adminTitle': 'Мережі залів від організаторів',
  'venues.adminIntro':
    'Схвалена мережа діє лише у вікні навколо дати турніру: клієнтів з неї не обмежує ліміт на адресу (як TRUSTED_VENUE_NETWORKS), ліміти пристрою й акаунта діють. Схвалюйте лише адреси зали, яку ви знаєте.',
  'venues.pendingTitle': 'Чекають на рішення',
  'venues.approvedTitle': 'Схвалені',
  'venues.nonePending': 'Запитів, що чекають, немає',
  'venues.noneApproved': 'Схвалених мереж на найближчі турніри немає',
  'venues.approve': 'Схвалити',
  'venues.refuse': 'Відхилити',
  'venues.tournament': 'Турнір «{title}» · {date}',

  // Answers and refusals.
  'venues.requested': 'Запит на мережу зали надіслано адміністраторові сайту',
  'venues.approved': 'Мережу зали «{note}» схвалено',
  'venues.refused': 'Мережу зали «{note}» відхилено',
  'venues.withdrawn': 'Мережу зали відкликано',
  'venues.enterNetworks': 'Вкажіть IP-адресу або мережу (CIDR) зали',
  'venues.tooMany': 'Щонайбільше {max} адреси чи мережі в одному запиті',
  'venues.entryTooLong': 'Адреса чи мережа — не довше {max} символів',
  'venues.enterNote': 'Вкажіть назву зали',
  'venues.noteTooLong': 'Назва зали — не довше {max} символів',
  'venues.badDecision': 'Рішення — approved (схвалити) або refused (відхилити)',
  'venues.already': 'Для цього турніру вже є запит на мережу зали: спершу відкличте його',
  'venues.windowOver': 'Турнір уже минув: мережа зали більше не потрібна',
  'venues.notFound': 'Запит на мережу зали не знайдено',
  'venues.none': 'Для цього турніру немає мережі зали, що чекає чи схвалена',
  'venues.decided': 'Цей запит уже вирішено або відкликано',

  // The organisers' bell.
  'venues.notice.approved': 'Мережу зали «{note}» для турніру «{title}» схвалено: у вікні турніру гравців з неї не обмежує ліміт на адресу.',
  'venues.notice.refused': 'Мережу зали «{note}» для турніру «{title}» відхилено.',

  // The audit log.
  'audit.kind.venueRequested': 'Запит на мережу зали',
  'audit.kind.venueApproved': 'Мережу зали схвалено',
  'audit.kind.venueRefused': 'Мережу зали відхилено',
  'audit.kind.venueWithdrawn': 'Мережу зали відкликано',
  'history.venueRequested': 'Запит на мережу зали «{note}»: {networks}',
  'history.venueApproved': 'Мережу зали «{note}» схвалено: {networks}',
  'history.venueRefused': 'Мережу зали «{note}» відхилено',
  'history.venueWithdrawn': 'Мережу зали «{note}» відкликано',
} as const;
