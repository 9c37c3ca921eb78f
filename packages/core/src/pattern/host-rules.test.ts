/**
 * One allow-list rule for the three lists: the Host check (MOCKPOINT_ALLOWED_HOSTS),
 * deliveries (MOCKPOINT_DELIVERY_ALLOW_HOSTS) and proxy routes
 * (MOCKPOINT_PROXY_ALLOW_HOSTS) must answer the same for the same entry and target.
 */
import { describe, expect, it } from 'vitest';
import { checkUpstreamHost } from '../answer/proxy/upstream.js';
import { checkProxyAnswer } from '../api/proxy-answer.js';
import { isAllowedHost } from '../hosts/host-guard.js';
import { checkDeliveryTarget } from '../webhook/delivery-target.js';
import { hostAllowed, isHostRule, normalHost, parseHostRule, splitHostPort } from './host-rules.js';

/** [entry, host as a URL writes it, port, allowed] */
const CASES: [string, string, number, boolean][] = [
  ['mocks.internal:8080', 'mocks.internal', 8080, true],
  ['mocks.internal:8080', 'mocks.internal', 8081, false],
  ['mocks.internal', 'mocks.internal', 8081, true],
  ['Mocks.Internal.', 'mocks.internal', 80, true],
  ['.example.com:8443', 'a.example.com', 8443, true],
  ['.example.com:8443', 'example.com', 8443, true],
  ['.example.com:8443', 'a.example.com', 443, false],
  ['.example.com', 'badexample.com', 443, false],
  ['10.0.0.5:8080', '10.0.0.5', 8080, true],
  ['10.0.0.5:8080', '10.0.0.5', 8081, false],
  ['10.0.0.5', '10.0.0.5', 9, true],
  ['fd00::5', '[fd00::5]', 80, true],
  ['[fd00::5]', '[fd00::5]', 80, true],
  ['[fd00:0:0::5]:8080', '[fd00::5]', 8080, true],
  ['[fd00::5]:8080', '[fd00::5]', 8081, false],
  ['fd00::6', '[fd00::5]', 80, false],
];

const passes = (check: () => unknown): boolean => {
  try {
    check();
    return true;
  } catch {
    return false;
  }
};

describe('the host allow-list rule', () => {
  it.each(CASES)('%s allows %s:%d: %s, in every list', (entry, host, port, allowed) => {
    const url = `http://${host}:${port}/x`;
    expect(hostAllowed(host, port, [entry])).toBe(allowed);
    expect(
      passes(() => checkDeliveryTarget(url, [entry])),
      'deliveries',
    ).toBe(allowed);
    expect(
      passes(() => checkUpstreamHost(new URL(url), [entry])),
      'proxy at request',
    ).toBe(allowed);
    expect(
      passes(() => checkProxyAnswer({ proxy: { url } }, 'route', [entry])),
      'proxy route',
    ).toBe(allowed);
    // The Host check answers every IP address anyway (only names are checked).
    if (!/^[\d.]+$|^\[/.test(host)) expect(isAllowedHost(`${host}:${port}`, [entry]), 'Host').toBe(allowed);
  });

  it('takes names, .suffixes and IP addresses, each with an optional port, and nothing else', () => {
    for (const entry of ['a.example', '.example.com', '127.0.0.1', '::1', '[::1]', '127.0.0.1:8080', '[::1]:1']) {
      expect(isHostRule(entry), entry).toBe(true);
    }
    for (const entry of [
      '',
      'a.example/x',
      'http://a.example',
      'a.example:0',
      'a.example:65536',
      '[::g]',
      '::1:x',
      'a_b',
    ]) {
      expect(isHostRule(entry), entry).toBe(false);
    }
    expect(parseHostRule('[0:0::1]:8080')).toEqual({ host: '::1', suffix: false, port: 8080 });
  });

  it('a listed port opens that port only for a loopback upstream too', () => {
    expect(passes(() => checkUpstreamHost(new URL('http://127.0.0.1:8080/'), ['127.0.0.1:8080']))).toBe(true);
    expect(passes(() => checkUpstreamHost(new URL('http://127.0.0.1:6379/'), ['127.0.0.1:8080']))).toBe(false);
    expect(passes(() => checkUpstreamHost(new URL('http://[::1]:8080/'), ['::1']))).toBe(true);
  });
});

/**
 * [text, host, port]: the one normalisation every list and the Host check read a
 * host through (`undefined`: malformed, allowed by nothing).
 */
const SPLITS: [string, string | undefined, string | undefined][] = [
  ['mocks.internal', 'mocks.internal', undefined],
  ['Mocks.Internal', 'mocks.internal', undefined],
  ['mocks.internal.', 'mocks.internal', undefined],
  ['Example.COM.:443', 'example.com', '443'],
  [' mocks.internal:8080 ', 'mocks.internal', '8080'],
  ['mocks.internal:', 'mocks.internal', ''],
  ['mocks.internal:x', 'mocks.internal', 'x'],
  ['.example.com', '.example.com', undefined],
  ['.Example.com.:8443', '.example.com', '8443'],
  ['10.0.0.5:8080', '10.0.0.5', '8080'],
  ['::1', '::1', undefined],
  ['[::1]', '::1', undefined],
  ['[::1]:80', '::1', '80'],
  ['[FD00:0:0::5]:8080', 'fd00::5', '8080'],
  ['fd00:0:0::5', 'fd00::5', undefined],
  ['[::1', undefined, undefined],
  ['[::1]x', undefined, undefined],
  ['[::1]:', '::1', ''],
];

describe('the one normalisation of a host', () => {
  it.each(SPLITS)('%j is host %j, port %j', (text, host, port) => {
    const split = splitHostPort(text);
    expect(split?.host).toBe(host);
    expect(split?.port).toBe(port);
  });

  it('normalHost, for a URL hostname: lower case, no brackets, no trailing dot, shortest IPv6', () => {
    expect(normalHost('[FD00:0:0::5]')).toBe('fd00::5');
    expect(normalHost('Mocks.Internal.')).toBe('mocks.internal');
    expect(normalHost('10.0.0.5')).toBe('10.0.0.5');
  });

  it('a list entry and a Host header with the same text name the same host and port', () => {
    for (const [text, host] of SPLITS) {
      if (host === undefined || text.includes(':x') || text.endsWith(':') || host.startsWith('.')) continue;
      const rule = parseHostRule(text);
      expect(rule?.host, text).toBe(host);
      const port = splitHostPort(text)?.port;
      // The Host check answers every IP address anyway (only names are checked).
      if (!/^[\d.]+$/.test(host) && !host.includes(':')) {
        expect(isAllowedHost(text, [host]), text).toBe(true);
        if (port !== undefined) expect(isAllowedHost(text, [`${host}:${Number(port) + 1}`]), text).toBe(false);
      }
    }
  });

  it('a Host the guard cannot read is allowed by nothing', () => {
    expect(isAllowedHost('[evil.example', ['evil.example'])).toBe(false);
    expect(isAllowedHost('[evil.example]x', ['evil.example'])).toBe(false);
  });
});
