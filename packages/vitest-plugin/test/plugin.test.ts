import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mockpoint } from '../src/plugin.js';

type TestConfig = { globalSetup?: string[]; setupFiles?: string[]; provide?: Record<string, unknown> };

function testConfig(plugin: ReturnType<typeof mockpoint>): TestConfig {
  const config = (plugin.config as () => { test: TestConfig })();
  return config.test;
}

describe('mockpoint() plugin', () => {
  it('adds the global setup and the matchers setup file, both next to the plugin', () => {
    const test = testConfig(mockpoint());
    expect(test.globalSetup).toHaveLength(1);
    expect(test.globalSetup![0]).toMatch(/[/\\]global-setup\.ts$/);
    expect(test.setupFiles![0]).toMatch(/[/\\]setup\.ts$/);
    for (const file of [...test.globalSetup!, ...test.setupFiles!]) expect(existsSync(file), file).toBe(true);
    expect(test.provide).toEqual({ 'mockpoint:server-options': {} });
  });

  it('passes server options to the global setup as plain data', () => {
    const test = testConfig(
      mockpoint({ server: { store: 'level', journalSize: 5, deliveryAllowHosts: ['.internal'] } }),
    );
    expect(test.provide).toEqual({
      'mockpoint:server-options': { store: 'level', journalSize: 5, deliveryAllowHosts: ['.internal'] },
    });
    expect(() => structuredClone(test.provide)).not.toThrow();
  });

  it('server: false adds only the matchers; matchers: false only the server', () => {
    expect(testConfig(mockpoint({ server: false }))).toEqual({ setupFiles: [expect.stringMatching(/setup\.ts$/)] });
    const serverOnly = testConfig(mockpoint({ matchers: false }));
    expect(serverOnly.setupFiles).toBeUndefined();
    expect(serverOnly.globalSetup).toHaveLength(1);
  });
});
