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

  it('intercept adds its setup file and gives it the origins as plain data', () => {
    const test = testConfig(
      mockpoint({ server: { hosts: { 'api.github.com': 'github' } }, intercept: ['https://api.github.com'] }),
    );
    expect(test.setupFiles?.[1]).toMatch(/[/\\]intercept-setup\.ts$/);
    expect(existsSync(test.setupFiles?.[1] as string)).toBe(true);
    expect(test.provide).toEqual({
      'mockpoint:server-options': { hosts: { 'api.github.com': 'github' } },
      'mockpoint:intercept': { origins: ['https://api.github.com'], unmatched: 'network' },
    });
    expect(testConfig(mockpoint({ server: false, intercept: ['https://a.test'] })).setupFiles).toHaveLength(1);
  });

  it('server: false adds only the matchers; matchers: false only the server', () => {
    expect(testConfig(mockpoint({ server: false }))).toEqual({ setupFiles: [expect.stringMatching(/setup\.ts$/)] });
    const serverOnly = testConfig(mockpoint({ matchers: false }));
    expect(serverOnly.setupFiles).toBeUndefined();
    expect(serverOnly.globalSetup).toHaveLength(1);
  });

  it('sessions adds its setup file (after the matchers) and gives it the options and the hosts as plain data', () => {
    const test = testConfig(
      mockpoint({ sessions: { onUnhandledRequest: 'warn' }, server: { hosts: { 'api.github.com': 'github' } } }),
    );
    expect(test.setupFiles).toEqual([
      expect.stringMatching(/[/\\]setup\.ts$/),
      expect.stringMatching(/[/\\]session-setup\.ts$/),
    ]);
    expect(existsSync(test.setupFiles?.[1] as string)).toBe(true);
    expect(test.provide?.['mockpoint:sessions']).toEqual({
      onUnhandledRequest: 'warn',
      ttlMs: 600_000,
      hosts: { 'api.github.com': 'github' },
    });
    expect(testConfig(mockpoint({ sessions: true })).provide?.['mockpoint:sessions']).toEqual({
      onUnhandledRequest: 'error',
      ttlMs: 600_000,
      hosts: {},
    });
    // Off (the default): nothing of sessions.
    expect(testConfig(mockpoint({ sessions: false })).setupFiles).toHaveLength(1);
    expect(testConfig(mockpoint()).provide).not.toHaveProperty('mockpoint:sessions');
  });

  it("sessions without the run's instance is refused", () => {
    expect(() => testConfig(mockpoint({ server: false, sessions: true }))).toThrow(
      expect.objectContaining({ code: 'INVALID_SETUP' }),
    );
  });
});
