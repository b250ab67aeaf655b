import type { mail as uk } from '../uk/mail.ts';

export const mail: Record<keyof typeof uk, string> = {
  'mail.ignore': 'If you did not sign up on Kiberarena, simply ignore this letter.',
  'mail.confirm.subject': 'Confirm your email on Kiberarena',
  'mail.confirm.lead': 'Welcome, {username}! To sign in to Kiberarena, confirm your email.',
  'mail.confirm.action': 'Confirm email',
  'mail.emailChange.subject': 'Confirm your new email on Kiberarena',
  'mail.emailChange.lead': '{username}, you changed your email address on Kiberarena. Confirm the new address.',
  'mail.emailChange.action': 'Confirm address',
  'mail.emailInUse.subject': 'Someone tried to use your email on Kiberarena',
  'mail.emailInUse.lead':
    'Someone gave this address as the new email of another Kiberarena account. Your account already has it, so nothing was changed. If it was you, sign in to your account.',
  'mail.emailInUse.action': 'Sign in',
};
