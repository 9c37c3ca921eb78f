import { describe, expect, it } from 'vitest';
import { hostOfHeader, parseHostMappings, parseHostPattern } from '../pattern/host-mapping.js';
import { MockpointError } from '../registry/errors.js';
import { HostTable } from './host-table.js';

describe('host patterns', () => {
  it.each([
    ['api.github.com', 'api.github.com'],
    ['API.GitHub.com.', 'api.github.com'],
    ['*.stripe.com', '*.stripe.com'],
    [' localhost.example ', 'localhost.example'],
  ])('%j is %j', (text, pattern) => expect(parseHostPattern(text)).toBe(pattern));

  it.each([
    '',
    '*',
    '*.',
    'a.*.com',
    '127.0.0.1',
    'localhost',
    'x.localhost',
    '[::1]',
    'api.github.com:443',
    'https://api.github.com',
    'a_b.com',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
  ])('%j is refused', (text) => expect(parseHostPattern(text)).toBeUndefined());

  it('reads the setting, and names the first bad entry', () => {
    expect(parseHostMappings('api.github.com=github, *.stripe.com=stripe,')).toEqual([
      { host: 'api.github.com', name: 'github' },
      { host: '*.stripe.com', name: 'stripe' },
    ]);
    expect(parseHostMappings('a.com=x,b.com')).toEqual({
      problem: expect.stringContaining('"b.com" is not host=name'),
    });
    expect(parseHostMappings('a.com=no spaces')).toHaveProperty('problem');
    expect(parseHostMappings('a.com=x,A.com=y')).toEqual({ problem: expect.stringContaining('mapped twice') });
  });

  it('reads a Host header: no port, lower case, bounded', () => {
    expect(hostOfHeader('API.github.com:8443')).toBe('api.github.com');
    expect(hostOfHeader('api.github.com.')).toBe('api.github.com');
    expect(hostOfHeader('[::1]:80')).toBeUndefined();
    expect(hostOfHeader('')).toBeUndefined();
    expect(hostOfHeader('a'.repeat(261))).toBeUndefined();
  });
});

describe('HostTable', () => {
  it('maps exact names first, then the nearest wildcard, never the bare parent', () => {
    const table = new HostTable([
      { host: '*.stripe.com', name: 'stripe' },
      { host: '*.eu.stripe.com', name: 'eu' },
      { host: 'api.stripe.com', name: 'api' },
    ]);
    expect(table.size).toBe(3);
    expect(table.lookup('api.stripe.com:443')).toBe('api');
    expect(table.lookup('files.stripe.com')).toBe('stripe');
    expect(table.lookup('a.b.stripe.com')).toBe('stripe');
    expect(table.lookup('x.eu.stripe.com')).toBe('eu');
    expect(table.lookup('stripe.com')).toBeUndefined();
    expect(table.lookup('evilstripe.com')).toBeUndefined();
    expect(table.lookup('127.0.0.1:16540')).toBeUndefined();
  });

  it('sets and clears the hosts the API gives, keeping those of the settings', () => {
    const table = new HostTable([{ host: 'api.github.com', name: 'github' }]);
    expect(table.setHosts('github', ['API.github.com', 'uploads.github.com', 'uploads.github.com'])).toEqual([
      { host: 'api.github.com', name: 'github', source: 'settings' },
      { host: 'uploads.github.com', name: 'github', source: 'api' },
    ]);
    expect(table.setHosts('other', ['*.other.test'])).toHaveLength(1);
    table.clearHosts('github');
    expect(table.lookup('uploads.github.com')).toBeUndefined();
    expect(table.lookup('api.github.com')).toBe('github');
    table.clearAll();
    expect(table.list()).toEqual([{ host: 'api.github.com', name: 'github', source: 'settings' }]);
    expect(table.lookup('x.other.test')).toBeUndefined();
  });

  it('refuses a host another endpoint holds, or a bad one, and changes nothing', () => {
    const table = new HostTable([{ host: 'api.github.com', name: 'github' }]);
    table.setHosts('a', ['a.test']);
    const taken = (() => {
      try {
        table.setHosts('b', ['b.test', 'a.test']);
      } catch (error) {
        return error as MockpointError;
      }
    })();
    expect(taken?.code).toBe('HOST_TAKEN');
    expect(taken?.message).toContain('"a.test" is mapped to endpoint "a"');
    expect(() => table.setHosts('b', ['api.github.com'])).toThrow(/by MOCKPOINT_HOSTS/);
    expect(() => table.setHosts('b', ['127.0.0.1'])).toThrow(MockpointError);
    expect(() =>
      table.setHosts(
        'b',
        Array.from({ length: 101 }, (_, i) => `h${i}.test`),
      ),
    ).toThrow(/at most 100/);
    expect(table.lookup('b.test')).toBeUndefined();
    expect(table.hostsOf('a')).toHaveLength(1);
  });
});
