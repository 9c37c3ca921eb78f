// The daemon's list of providers (src/twin-providers.ts, kept free of imports for `--twin`) names
// what @mockpoint/twins ships, in its order (docs/development.md, "Adding a provider"): a provider
// added to one and not the other fails here, not as a daemon refusing it.
import { providers } from '@mockpoint/twins';
import { expect, it } from 'vitest';
import { TWIN_PROVIDERS } from '../src/twin-providers.js';

it('names the providers @mockpoint/twins ships', () => {
  expect(TWIN_PROVIDERS).toEqual(providers);
});
