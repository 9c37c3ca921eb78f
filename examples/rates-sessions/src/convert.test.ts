import { expect, test } from '@mockpoint/vitest';
import { convert, RatesError } from './convert.js';

// Every test stubs the same endpoint, `rates`, with rates of its own, and they all run at once:
// each test's session is its own namespace, and the intercepted https://rates.example.com
// requests go to the session of the test that made them.
const CASES = [
  { from: 'USD', to: 'EUR', rate: 0.92, amount: 100, expected: 92 },
  { from: 'USD', to: 'JPY', rate: 151.37, amount: 3, expected: 454.11 },
  { from: 'GBP', to: 'EUR', rate: 1.17, amount: 10, expected: 11.7 },
  { from: 'EUR', to: 'CHF', rate: 0.94, amount: 0.5, expected: 0.47 },
];

for (const { from, to, rate, amount, expected } of CASES) {
  test.concurrent(`converts ${amount} ${from} to ${to}`, async ({ session, expect }) => {
    const rates = await session.api('rates', [
      {
        match: { method: 'GET', path: '/latest', query: { base: from } },
        answer: { data: { base: from, rates: { [to]: rate } } },
      },
    ]);
    expect(await convert(amount, from, to)).toBe(expected);
    await expect(rates).toHaveBeenRequestedTimes(1);
    await expect(rates).toHaveBeenRequestedWith({ query: { base: from }, headers: { host: 'rates.example.com' } });
  });
}

test('a base URL from the session reaches the same namespace, without intercept', async ({ session }) => {
  const rates = await session.api('rates', [
    { match: { path: '/latest' }, answer: { data: { base: 'USD', rates: { EUR: 0.5 } } } },
  ]);
  expect(await convert(8, 'USD', 'EUR', { baseUrl: rates.url })).toBe(4);
  expect(rates.url).toBe(`${session.url}/endpoint/rates`);
});

test('an error answer of the API is a RatesError with its status', async ({ session }) => {
  await session.api('rates', [
    { match: { path: '/latest' }, answer: { statusCode: 503, data: { error: 'maintenance' } } },
  ]);
  await expect(convert(1, 'USD', 'EUR')).rejects.toEqual(new RatesError('rates for USD: HTTP 503', 503));
});

test('a currency the API does not list', async ({ session }) => {
  await session.api('rates', [{ match: { path: '/latest' }, answer: { data: { base: 'USD', rates: {} } } }]);
  await expect(convert(1, 'USD', 'XYZ')).rejects.toThrow('no rate from USD to XYZ');
});
