/**
 * SEPA Direct Debit, a delayed notification payment method, as Stripe's "Accept a SEPA Direct Debit
 * payment" guide and its test IBANs have it: a PaymentMethod `type: sepa_debit` made from an IBAN
 * (`sepa_debit[iban]`, with the account holder's `billing_details[name]` and `[email]`); a
 * PaymentIntent in `eur` confirmed with it and a mandate (`mandate_data[customer_acceptance]`) is
 * `processing` (`payment_intent.processing`, its Charge `pending`, `charge.pending`), then moves as
 * the IBAN says: `succeeded` (`payment_intent.succeeded`, `charge.succeeded`), `succeeded` and
 * disputed at once (`charge.dispute.created`), or back to `requires_payment_method` with the
 * failure's code (`payment_intent.payment_failed`, `charge.failed`). The guide's "after at least
 * three minutes" IBANs stay `processing` until the twin-only settle helper
 * (`POST /v1/test_helpers/payment_intents/{intent}/settle`, sepa-payments.ts) moves them; the
 * others move at once, after the confirm's answer (which shows `processing`, as Stripe's does).
 *
 * @module
 */

import type { FlowError } from '@mockpoint/core/internal';
import { invalidRequest, missingParam } from './errors.js';

type Obj = Record<string, unknown>;

/** What a test IBAN's payment does once `processing` (Stripe's testing table, by its token's word). */
export type SepaOutcome =
  | 'success'
  | 'successDelayed'
  | 'failed'
  | 'failedDelayed'
  | 'disputed'
  | 'exceedsWeeklyVolumeLimit'
  | 'exceedsWeeklyTransactionLimit'
  | 'insufficientFunds';

/** The outcomes in the order of each country's row of test IBANs below. */
const OUTCOMES: readonly SepaOutcome[] = [
  'success',
  'successDelayed',
  'failed',
  'failedDelayed',
  'disputed',
  'exceedsWeeklyVolumeLimit',
  'exceedsWeeklyTransactionLimit',
  'insufficientFunds',
];

/** Stripe's test IBANs of SEPA Direct Debit (docs.stripe.com/payments/sepa-debit/accept-a-payment, "Test IBANs"), in {@link OUTCOMES} order. */
const TEST_IBANS: Readonly<Record<string, readonly string[]>> = {
  AT: [
    'AT611904300234573201',
    'AT321904300235473204',
    'AT861904300235473202',
    'AT051904300235473205',
    'AT591904300235473203',
    'AT981904300000343434',
    'AT601904300000121212',
    'AT981904300002222227',
  ],
  BE: [
    'BE62510007547061',
    'BE78510007547064',
    'BE68539007547034',
    'BE51510007547065',
    'BE08510007547063',
    'BE90510000343434',
    'BE52510000121212',
    'BE90510002222227',
  ],
  DE: [
    'DE89370400440532013000',
    'DE08370400440532013003',
    'DE62370400440532013001',
    'DE78370400440532013004',
    'DE35370400440532013002',
    'DE65370400440000343434',
    'DE27370400440000121212',
    'DE65370400440002222227',
  ],
  EE: [
    'EE382200221020145685',
    'EE222200221020145682',
    'EE762200221020145680',
    'EE922200221020145683',
    'EE492200221020145681',
    'EE672200000000343434',
    'EE292200000000121212',
    'EE672200000002222227',
  ],
  FI: [
    'FI2112345600000785',
    'FI3712345600000788',
    'FI9112345600000786',
    'FI1012345600000789',
    'FI6412345600000787',
    'FI6712345600343434',
    'FI2912345600121212',
    'FI6712345602222227',
  ],
  FR: [
    'FR1420041010050500013M02606',
    'FR3020041010050500013M02609',
    'FR8420041010050500013M02607',
    'FR7920041010050500013M02600',
    'FR5720041010050500013M02608',
    'FR9720041010050000000343434',
    'FR5920041010050000000121212',
    'FR9720041010050000002222227',
  ],
  HR: [
    'HR7624020064583467589',
    'HR6323600002337876649',
    'HR2725000096983499248',
    'HR6723600004878117427',
    'HR8724840081455523553',
    'HR7424020060000343434',
    'HR3624020060000121212',
    'HR7424020060002222227',
  ],
};

const OUTCOME_OF_IBAN: ReadonlyMap<string, SepaOutcome> = new Map(
  Object.values(TEST_IBANS).flatMap((ibans) => ibans.map((iban, at) => [iban, OUTCOMES[at] as SepaOutcome] as const)),
);

/** Each test IBAN's outcome by its fingerprint (what a PaymentMethod keeps of it). */
const OUTCOME_OF_FINGERPRINT: ReadonlyMap<string, SepaOutcome> = new Map(
  [...OUTCOME_OF_IBAN].map(([iban, outcome]) => [fingerprintOf(iban), outcome] as const),
);

/** The charge's `failure_code` of a failing outcome (the table names three; a plain failure is Stripe's generic one). */
const FAILURE_CODES: Partial<Record<SepaOutcome, string>> = {
  failed: 'generic_could_not_process',
  failedDelayed: 'generic_could_not_process',
  exceedsWeeklyVolumeLimit: 'charge_exceeds_source_limit',
  exceedsWeeklyTransactionLimit: 'charge_exceeds_weekly_limit',
  insufficientFunds: 'insufficient_funds',
};

/** The prefix of the test key (setup.ts `testOf`) a SEPA PaymentMethod pays as: `sepa_debit:success`. */
const KEY = 'sepa_debit:';

/** Whether `test` (a test key) is a SEPA Direct Debit payment's. */
export function isSepa(test: unknown): test is string {
  return typeof test === 'string' && test.startsWith(KEY);
}

/** The outcome of the SEPA test key `test`. */
export function outcomeOf(test: string): SepaOutcome {
  return test.slice(KEY.length) as SepaOutcome;
}

/** The test key a held `sepa_debit` PaymentMethod pays as, from its IBAN's fingerprint (another IBAN succeeds). */
export function sepaKeyOf(method: Obj): string {
  const fingerprint = (method.sepa_debit as Obj | undefined)?.fingerprint;
  return `${KEY}${(typeof fingerprint === 'string' ? OUTCOME_OF_FINGERPRINT.get(fingerprint) : undefined) ?? 'success'}`;
}

/** An IBAN as sent (spaces and case aside), or `undefined` when it is none: ISO 13616's form and its mod-97 check. */
function ibanOf(sent: unknown): string | undefined {
  if (typeof sent !== 'string' || sent.length > 64) return undefined;
  const iban = sent.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return undefined;
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let rest = 0;
  for (const char of moved) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1 ? iban : undefined;
}

/** Where an IBAN's bank and branch codes are, after its 4 first characters, by country (ISO 13616's registry). */
const CODES: Readonly<Record<string, readonly [bank: number, branch: number]>> = {
  AT: [5, 0],
  BE: [3, 0],
  DE: [8, 0],
  EE: [2, 0],
  ES: [4, 4],
  FI: [6, 0],
  FR: [5, 5],
  HR: [7, 0],
  IE: [4, 6],
  IT: [6, 5],
  LU: [3, 0],
  NL: [4, 0],
  PT: [4, 4],
};

/** An IBAN's `bank_code` and `branch_code` (empty where its country has none). */
function codesOf(iban: string): { bank_code: string; branch_code: string } {
  const [bank, branch] = CODES[iban.slice(0, 2)] ?? [4, 0];
  // Italy's first character is a check letter (CIN), before the bank's ABI.
  const from = iban.startsWith('IT') ? 5 : 4;
  const bankCode = iban.slice(from, from + (iban.startsWith('IT') ? 5 : bank));
  const at = from + (iban.startsWith('IT') ? 5 : bank);
  return { bank_code: bankCode, branch_code: iban.slice(at, at + branch) };
}

/** A stable 16-letter fingerprint of an IBAN (the same account, the same fingerprint). */
function fingerprintOf(iban: string): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let hash = 0x811c9dc5;
  let out = '';
  for (let round = 0; out.length < 16; round++) {
    for (const char of `${iban}${round}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
    out += letters[hash % letters.length];
  }
  return out;
}

/**
 * A new `sepa_debit` PaymentMethod (`POST /v1/payment_methods`) from `sepa_debit[iban]`: its
 * country, bank code, last four digits and fingerprint, as Stripe answers one; Stripe's `400`
 * for an IBAN that is none, or without the holder's name and email.
 */
export function creatingSepaMethod(method: Obj, sent: Obj): FlowError | undefined {
  const given = (sent.sepa_debit as Obj | undefined)?.iban;
  if (given === undefined) return missingParam('sepa_debit[iban]');
  const iban = ibanOf(given);
  if (iban === undefined) {
    return invalidRequest(
      "The IBAN you provided is invalid: an IBAN is 2 letters of a country, 2 check digits and up to 30 letters and digits that pass its mod-97 check (Stripe's test IBANs, such as AT611904300234573201, do).",
      'sepa_debit[iban]',
      'invalid_bank_account_iban',
    );
  }
  const billing = (sent.billing_details as Obj | undefined) ?? {};
  for (const field of ['name', 'email']) {
    if (typeof billing[field] !== 'string' || billing[field] === '') {
      return invalidRequest(
        `Missing required param: billing_details[${field}]. A SEPA Direct Debit PaymentMethod needs the account holder's name and email (for the mandate).`,
        `billing_details[${field}]`,
        'parameter_missing',
      );
    }
  }
  const exampleType = method.type;
  if (typeof exampleType === 'string' && exampleType !== 'sepa_debit') delete method[exampleType];
  Object.assign(method, {
    type: 'sepa_debit',
    billing_details: {
      address: billing.address ?? null,
      email: billing.email,
      name: billing.name,
      phone: billing.phone ?? null,
    },
    sepa_debit: {
      ...codesOf(iban),
      country: iban.slice(0, 2),
      fingerprint: fingerprintOf(iban),
      generated_from: { charge: null, setup_attempt: null },
      last4: iban.slice(-4),
    },
  });
  return undefined;
}

/**
 * Stripe's refusal of a SEPA confirm it cannot take: a currency other than `eur`, or no mandate
 * (`mandate_data[customer_acceptance]` or `mandate`).
 */
export function refusedSepa(intent: Obj, sent: Obj): FlowError | undefined {
  if (intent.currency !== 'eur') {
    return invalidRequest(
      `SEPA Direct Debit payments are in eur only; this PaymentIntent's currency is ${String(intent.currency)}.`,
      'currency',
    );
  }
  const acceptance = (sent.mandate_data as Obj | undefined)?.customer_acceptance as Obj | undefined;
  if (typeof sent.mandate === 'string' || typeof acceptance?.type === 'string' || typeof intent.mandate === 'string') {
    return undefined;
  }
  return invalidRequest(
    'A SEPA Direct Debit payment needs a mandate: send mandate_data[customer_acceptance][type] (online, with ip_address and user_agent, or offline) with the confirm.',
    'mandate_data',
    'parameter_missing',
  );
}

/** The Charge's `payment_method_details` of a SEPA payment by `method` under mandate `mandate`. */
export function sepaDetails(method: Obj | undefined, mandate: string): Obj {
  const details = (method?.sepa_debit as Obj | undefined) ?? {};
  return {
    sepa_debit: {
      bank_code: details.bank_code ?? null,
      branch_code: details.branch_code ?? null,
      country: details.country ?? null,
      fingerprint: details.fingerprint ?? null,
      last4: details.last4 ?? null,
      mandate,
    },
    type: 'sepa_debit',
  };
}

/** Whether an outcome moves only after "at least three minutes" (the settle helper, here). */
export function isDelayed(outcome: SepaOutcome): boolean {
  return outcome === 'successDelayed' || outcome === 'failedDelayed';
}

/** The failure code of an outcome that fails, `undefined` for one that succeeds. */
export function failureOf(outcome: SepaOutcome): string | undefined {
  return FAILURE_CODES[outcome];
}

/** The test key a delayed outcome settles as: the same payment, moved. */
export function settledKey(outcome: SepaOutcome): string {
  return `${KEY}${outcome === 'successDelayed' ? 'success' : outcome === 'failedDelayed' ? 'failed' : outcome}`;
}
