/**
 * `@mockpoint/core/session`: carrying a test session (`mockpoint-session`)
 * from the requests an app server gets to the requests it makes, in Node
 * (docs/sessions.md#carrying-the-session-to-an-app-server).
 *
 * @module
 */
export { type CarrySessionOptions, carrySession, NOT_CARRIED_WARNING } from './carry-session.js';
export {
  type FastifyHooks,
  fastifySession,
  type RequestWithHeaders,
  sessionMiddleware,
  withSession,
} from './handlers.js';
export { currentSession, runWithSession, sessionHeaders } from './session-context.js';
export { type HeadersInput, SESSION_HEADER, sessionOf } from './session-header.js';
