// createMockServer()'s list of providers (src/twin-catalog.ts, named without importing the package)
// is what @mockpoint/twins ships, in its order (docs/development.md, "Adding a provider"): a
// provider added to the package and not here fails here, not as a twin refused.
import { providers } from '@mockpoint/twins';
import { expect, it } from 'vitest';
import { twinCatalog } from '../src/twin-catalog.js';

it('names the providers @mockpoint/twins ships', () => {
  expect(twinCatalog.providers).toEqual(providers);
});
