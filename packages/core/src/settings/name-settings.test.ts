import { describe, expect, it } from 'vitest';
import { encodeSetting, NAME_SETTINGS, SETTING_KINDS, settingHash } from './name-settings.js';

describe('the per-name settings registry', () => {
  it('keys every setting by its own name, in letters only, each key and Redis hash once', () => {
    const keys = SETTING_KINDS.map((kind) => NAME_SETTINGS[kind].key);
    expect(keys).toEqual(SETTING_KINDS);
    for (const key of keys) expect(key).toMatch(/^[a-z]+$/);
    const hashes = SETTING_KINDS.map((kind) => settingHash(kind, 'p:'));
    expect(new Set(hashes).size).toBe(hashes.length);
    // The hashes earlier versions used, so existing Redis data loads.
    const earlier = {
      signature: 'signatures',
      chaos: 'chaos',
      graphql: 'graphql',
      grpc: 'grpc',
      hosts: 'hosts',
    } as const;
    for (const [kind, hash] of Object.entries(earlier)) {
      expect(settingHash(kind as keyof typeof earlier, 'p:')).toBe(`p:${hash}`);
    }
  });

  it('encodes a value that holds nothing as a removal: undefined, and hosts []', () => {
    for (const kind of SETTING_KINDS) expect(encodeSetting(kind, undefined)).toBeUndefined();
    expect(encodeSetting('hosts', [])).toBeUndefined();
    expect(encodeSetting('hosts', ['a.test'])).toBe('["a.test"]');
  });

  it('refuses stored text that is not a value (damaged storage)', () => {
    expect(() => NAME_SETTINGS.hosts.decode('{"a":1}')).toThrow(TypeError);
    expect(() => NAME_SETTINGS.signature.decode('{}')).toThrow();
    expect(() => NAME_SETTINGS.chaos.decode('not json')).toThrow();
  });
});
