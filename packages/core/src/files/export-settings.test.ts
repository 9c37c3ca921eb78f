/**
 * `mockpoint export` is the whole state: a name holding only one per-name setting, of any kind
 * the registry declares (settings/name-settings.ts), is exported with it as the mock
 * file's member of the setting's key, and `apply` writes it back: exported again, the same file.
 * A new setting fails here until export and apply carry it.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { SETTING_KINDS } from '../settings/name-settings.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { SETTING_SAMPLES } from '../store/store.case.test.js';
import { applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

/** An app over `store` (its hosts loaded), and the admin target that calls it. */
async function appOver(store: MemoryStore) {
  const app = createApp({ store });
  await app.mockpoint.hostsLoaded;
  return { url: 'http://app', fetch: async (request: Request) => app.request(request) };
}

describe('export and apply of every declared setting', () => {
  it.each(SETTING_KINDS)(
    'a name holding only %s is exported with it, and applied back exports the same file',
    async (kind) => {
      const store = new MemoryStore();
      await store.setSetting(kind, 'held', SETTING_SAMPLES[kind][0]);
      const text = await exportMockFile(await appOver(store));
      const endpoints = (JSON.parse(text) as { endpoints: Record<string, unknown>[] }).endpoints;
      expect(endpoints.map((entry) => entry.name)).toEqual(['held']);
      expect(Object.keys(endpoints[0] ?? {})).toEqual(['name', kind]);

      const applied = new MemoryStore();
      await applyMockFile(parseMockFile(text), await appOver(applied));
      // Applied back, it exports the same file byte for byte (as the daemon keeps it: hosts sorted, …).
      expect(await exportMockFile(await appOver(applied))).toBe(text);
      expect(await applied.settingNames(kind)).toEqual(['held']);
      expect(await applied.get('held')).toBeUndefined();
    },
  );
});
