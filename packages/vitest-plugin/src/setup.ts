/**
 * `@mockpoint/vitest/setup`: a `setupFiles` entry that registers the request
 * matchers. The `mockpoint()` plugin adds it for you; without the plugin:
 * `test: { setupFiles: ['@mockpoint/vitest/setup'] }`.
 *
 * @module
 */
import { expect } from 'vitest';
import { failUnawaited } from './awaited.js';
import { mockpointMatchers } from './matchers.js';

expect.extend(mockpointMatchers);
// A matcher called without `await` fails the test that called it (not a later one, as an unhandled rejection).
failUnawaited(Object.keys(mockpointMatchers));

// Type-only: the matcher typings for programs that only reference this entry.
export type { RequestMatch } from './matchers.js';
