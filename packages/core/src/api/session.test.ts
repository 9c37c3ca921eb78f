import { describe, expect, it } from 'vitest';
import {
  namespacePageRedirect,
  sessionFromBaggage,
  sessionFromHeader,
  sessionOfHeaders,
  sessionOfRawHeaders,
  splitNamespaceTarget,
} from './session.js';

describe('how a request names its namespace', () => {
  it('reads the header first, then the baggage entry, from raw headers of any case', () => {
    expect(sessionOfRawHeaders(['Host', 'x', 'Mockpoint-Session', ' t1 '])).toBe('t1');
    expect(sessionOfRawHeaders(['baggage', 'mockpoint-session=b', 'MOCKPOINT-SESSION', 'h'])).toBe('h');
    expect(sessionOfRawHeaders(['Baggage', 'a=1', 'baggage', 'mockpoint-session=t%2D2;prop'])).toBe('t-2');
    expect(sessionOfRawHeaders(['host', 'x', 'baggage', 'other=1'])).toBeUndefined();
    expect(sessionOfRawHeaders([])).toBeUndefined();
  });

  it('reads a Fetch request’s headers the same way', () => {
    expect(sessionOfHeaders(new Headers({ 'mockpoint-session': 'a', baggage: 'mockpoint-session=b' }))).toBe('a');
    expect(sessionOfHeaders(new Headers({ baggage: 'x=1, mockpoint-session = b ' }))).toBe('b');
    expect(sessionOfHeaders(new Headers())).toBeUndefined();
  });

  it('reads a header sent twice alike from raw headers and from Headers: one name twice is it, two are none', () => {
    const twice = (a: string, b: string) => [
      sessionOfRawHeaders(['mockpoint-session', a, 'Host', 'x', 'Mockpoint-Session', b]),
      sessionOfHeaders(
        new Headers([
          ['mockpoint-session', a],
          ['mockpoint-session', b],
        ]),
      ),
    ];
    expect(twice('t1', ' t1 ')).toEqual(['t1', 't1']);
    // Two names are no one name: returned joined, which the name rule refuses (never the first silently).
    expect(twice('t1', 't2')).toEqual(['t1, t2', 't1, t2']);
    // A header that names none is not passed over for the baggage entry.
    expect(
      sessionOfRawHeaders(['mockpoint-session', 'a', 'baggage', 'mockpoint-session=b', 'mockpoint-session', 'c']),
    ).toBe('a, c');
    expect(sessionFromHeader(' a ,a, a ')).toBe('a');
    expect(sessionFromHeader('a,,a')).toBe('a,,a');
  });

  it('a baggage entry that cannot be decoded, or an oversized header, names none', () => {
    expect(sessionFromBaggage('mockpoint-session=%E0%A4%A')).toBeUndefined();
    expect(sessionFromBaggage(`mockpoint-session=a,${'x'.repeat(9000)}`)).toBeUndefined();
    expect(sessionFromBaggage('mockpoint-sessionx=a')).toBeUndefined();
  });

  it('splits /ns/{ns} off a target, and sends /ns/{ns} alone to /ns/{ns}/', () => {
    expect(splitNamespaceTarget('/ns/t1/endpoint/a?x=1')).toEqual({ name: 't1', rest: '/endpoint/a?x=1' });
    expect(splitNamespaceTarget('/ns/t1')).toEqual({ name: 't1', rest: '/' });
    expect(splitNamespaceTarget('/ns/t1?x')).toEqual({ name: 't1', rest: '/?x' });
    expect(splitNamespaceTarget('/nsx/t1')).toBeUndefined();
    expect(namespacePageRedirect('/ns/t1')).toBe('/ns/t1/');
    expect(namespacePageRedirect('/ns/t1?x=1')).toBe('/ns/t1/?x=1');
    expect(namespacePageRedirect('/ns/t1/')).toBeUndefined();
    expect(namespacePageRedirect('/ns/t1/endpoint/a')).toBeUndefined();
  });
});
