import type { staff as uk } from '../uk/staff.ts';

/** A tournament's co-organisers (issue 23, decision 016). */
export const staff: Record<keyof typeof uk, string> = {
  'staff.title': 'Organisers',
  'staff.none': 'The site administration runs this tournament.',
  'staff.manageTitle': 'Tournament co-organisers',
  'staff.manageHint': 'Co-organisers review applications, run check-in, create stages and enter results — in this tournament only.',
  'staff.field': 'Nickname or email',
  'staff.add': 'Add',
  'staff.adding': 'Adding…',
  'staff.remove': 'Remove',
  'staff.removeLabel': 'Remove {name} from the organisers',
  'staff.removeConfirm': 'Remove {name} from the tournament’s organisers? Their rights end at once.',
  'staff.empty': 'No co-organisers yet.',
  'staff.loadError': 'Could not load the organisers',
  'staff.failed': 'Could not change the organisers',
  'staff.count': 'Organisers: {count} of {max}',

  'staff.added': '{name} is now an organiser of the tournament',
  'staff.removed': '{name} is no longer an organiser of the tournament',
  'staff.enterUser': 'Enter a nickname or email',
  'staff.userTooLong': 'A nickname or email is at most {max} characters',
  'staff.userNotFound': 'User not found',
  'staff.already': 'This user already organises the tournament',
  'staff.admin': 'An administrator organises every tournament already',
  'staff.full': 'A tournament may have at most {max} co-organisers',
  'staff.notStaff': 'This user is not an organiser of the tournament',
  'staff.forbidden': 'Access only for this tournament’s organisers',

  'staff.notice.added': 'You were made an organiser of the tournament "{title}".',
  'staff.notice.removed': 'You are no longer an organiser of the tournament "{title}".',
};
