/**
 * Notifications marked as read (`activity.markNotificationsAsRead`, `PUT /notifications`, and
 * `activity.markRepoNotificationsAsRead`, `PUT /repos/{owner}/{repo}/notifications`): the twin
 * keeps no notifications, so none is ever left unread, and GitHub's answer for that is `205 Reset
 * Content` with no body (its `202` says some are still being marked, in the background).
 *
 * @module
 */
import type { OwnOperation } from '@mockpoint/core/internal';
import type { RepoOperation } from './pushes.js';

const MARKS = new Set(['/notifications', '/repos/{owner}/{repo}/notifications']);

/** `PUT` of either path: `205`; `undefined`: another operation. */
export const githubNotifications: OwnOperation & RepoOperation = async (matched, _sent, state) => {
  if (matched.op.method !== 'PUT' || !MARKS.has(matched.op.template) || state.examples) return undefined;
  return { status: 205 };
};
