/**
 * Notifications marked as read (`activity.markNotificationsAsRead`, `PUT /notifications`, and
 * `activity.markRepoNotificationsAsRead`, `PUT /repos/{owner}/{repo}/notifications`): the twin
 * keeps no notifications, so none is ever left unread, and GitHub's answer for that is `205 Reset
 * Content` with no body (its `202` says some are still being marked, in the background).
 *
 * @module
 */
import type { FlowState, MatchedOperation, OwnAnswer, OwnOperation } from '@mockpoint/core/internal';
import type { RepoOperation } from './pushes.js';

/** `PUT /notifications`: `205`; `undefined`: another operation. */
export const githubNotifications: OwnOperation = async (matched, _sent, state) =>
  marked(matched, state, '/notifications');

/** `PUT /repos/{owner}/{repo}/notifications`, of a repository held (asked below it): `205`. */
export const githubRepoNotifications: RepoOperation = async (matched, _sent, state) =>
  marked(matched, state, '/repos/{owner}/{repo}/notifications');

function marked(matched: MatchedOperation, state: FlowState, template: string): OwnAnswer | undefined {
  if (matched.op.method !== 'PUT' || matched.op.template !== template || state.examples) return undefined;
  return { status: 205 };
}
