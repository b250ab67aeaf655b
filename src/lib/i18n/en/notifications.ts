import type { notifications as uk } from '../uk/notifications.ts';

export const notifications: Record<keyof typeof uk, string> = {
  'notifications.title': 'Notifications',
  'notifications.bell': 'Notifications',
  'notifications.bellUnread': 'Notifications: {count} unread',
  'notifications.empty': 'No notifications',
  'notifications.markAll': 'Mark all as read',
  'notifications.processing': 'Processing...',
  'notifications.markAllError': 'Error marking notifications as read',
  'notifications.loadError': 'Could not load notifications',
  'notifications.unknownAction': 'Unknown action type',
  'notifications.actionError': 'Error: {message}',
  'notifications.accept': 'Accept',
  'notifications.reject': 'Decline',
  'notifications.unread': 'Unread',
  'notifications.close': 'Close notifications',
  'notifications.notFound': 'Notification not found',
  'notifications.allRead': 'All notifications marked as read',
  'notifications.deleted': 'Notification deleted',
};
