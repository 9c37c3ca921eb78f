/**
 * A currency converter: asks the rates API (https://rates.example.com by default)
 * for the rates from one currency and converts an amount, rounded to cents.
 */

/** What `GET /latest?base=USD` answers. */
export interface RatesAnswer {
  base: string;
  rates: Record<string, number>;
}

export class RatesError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RatesError';
  }
}

export interface ConvertOptions {
  /** @default 'https://rates.example.com' */
  baseUrl?: string;
}

export async function convert(amount: number, from: string, to: string, options: ConvertOptions = {}): Promise<number> {
  const baseUrl = options.baseUrl ?? 'https://rates.example.com';
  const response = await fetch(`${baseUrl}/latest?base=${encodeURIComponent(from)}`, {
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new RatesError(`rates for ${from}: HTTP ${response.status}`, response.status);
  const answer = (await response.json()) as RatesAnswer;
  const rate = answer.rates[to];
  if (rate === undefined) throw new RatesError(`no rate from ${from} to ${to}`);
  return Math.round(amount * rate * 100) / 100;
}
