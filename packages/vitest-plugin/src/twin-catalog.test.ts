// The plugin's twins without @mockpoint/twins installed: setTwin's refusal says how to get the package.
import { describe, expect, it, vi } from 'vitest';
import { twinCatalog } from './twin-catalog.js';

// The package not installed: its import fails as a missing module's does.
vi.mock('@mockpoint/twins', () => {
  throw new Error("Cannot find package '@mockpoint/twins'");
});

describe('twins without @mockpoint/twins', () => {
  it('refuses with INVALID_TWIN saying the package is a tarball packed from a clone, not on the registry', async () => {
    const refusal = (await twinCatalog.providers().catch((error: unknown) => error)) as {
      code: string;
      message: string;
    };
    expect(refusal.code).toBe('INVALID_TWIN');
    expect(refusal.message).toContain('not on the npm registry yet');
    expect(refusal.message).toContain('npx -y pnpm@10.34.9 tarballs');
    expect(refusal.message).toContain('npm install --save-dev <clone>/tarballs/mockpoint-twins-<version>.tgz');
    expect(refusal.message).not.toMatch(/npm install --save-dev @mockpoint\/twins/);
  });
});
