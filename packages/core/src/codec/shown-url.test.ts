import { describe, expect, it } from 'vitest';
import { maskCredentials, reportedUrl } from './shown-url.js';

describe('URLs as shown', () => {
  it('mask a user and password, and leave other URLs as they are', () => {
    expect(maskCredentials('http://u:pw@127.0.0.1:9/hook?a=1')).toBe('http://***@127.0.0.1:9/hook?a=1');
    expect(maskCredentials('https://token@hooks.example/x')).toBe('https://***@hooks.example/x');
    expect(maskCredentials('http://a%40b:p%40ss@h/')).toBe('http://***@h/');
    expect(maskCredentials('http://h/x?email=a@b.example')).toBe('http://h/x?email=a@b.example');
    expect(maskCredentials('not a url @ all')).toBe('not a url @ all');
  });

  it('go to error reports and logs without a query, fragment or credentials', () => {
    expect(reportedUrl('http://u:pw@h:1/api/x?token=t#f')).toBe('http://***@h:1/api/x');
    expect(reportedUrl('/endpoint/a/b?signature=s')).toBe('/endpoint/a/b');
    expect(reportedUrl('http://h/p#frag')).toBe('http://h/p');
  });
});
