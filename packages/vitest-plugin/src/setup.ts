/**
 * `@mockpoint/vitest/setup`: a `setupFiles` entry that registers the request
 * matchers. The `mockpoint()` plugin adds it for you; without the plugin:
 * `test: { setupFiles: ['@mockpoint/vitest/setup'] }`.
 *
 * @module
 */
import { expect } from 'vitest';
import { mockpointMatchers } from './matchers.js';

expect.extend(mockpointMatchers);

// Type-only: the matcher typings for programs that only reference this entry.
export type { RequestMatch } from './matchers.js';
