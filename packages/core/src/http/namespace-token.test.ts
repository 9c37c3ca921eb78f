import { describe, expect, it } from 'vitest';
import { isValidName } from '../registry/rules.js';
import { isRandomName, newToken, randomName, tokenHash, tokenNamespace } from './namespace-token.js';

describe('namespace tokens and names', () => {
  it('draws fresh names and secrets across many refills of the random pool', () => {
    // 20,000 draws of 9 and 24 bytes pass through the 4 KiB pool about 160 times.
    const names = new Set<string>();
    const secrets = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const name = randomName();
      expect(name).toMatch(/^s-[A-Za-z0-9_-]{12}$/);
      expect(isValidName(name)).toBe(true);
      expect(isRandomName(name)).toBe(true);
      names.add(name);
      const token = newToken(name);
      expect(tokenNamespace(token)).toBe(name);
      const secret = token.slice(`mpns.${name}.`.length);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      secrets.add(secret);
    }
    expect(names.size).toBe(10_000);
    expect(secrets.size).toBe(10_000);
  });

  it('spreads the bytes it draws: every base64url character shows up in the secrets', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) for (const char of newToken('a').slice('mpns.a.'.length)) seen.add(char);
    expect(seen.size).toBe(64);
  });

  it('tells a random name from a chosen one by its shape', () => {
    for (const name of ['chosen', 's-abc', 's-abcdefghijklm', 'x-abcdefghijkl', 's-abcdefghij.l']) {
      expect(isRandomName(name), name).toBe(false);
    }
  });

  it('tells a token of another form apart, and hashes as SHA-256 hex', async () => {
    expect(tokenNamespace('Bearer abc')).toBeUndefined();
    expect(tokenNamespace('mpns.bad name.x')).toBeUndefined();
    expect(await tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
