/**
 * The cards behind Stripe's test payment methods (`pm_card_visa` is 4242 4242 4242 4242), as a
 * Charge paid with one shows them in `payment_method_details`; the numbers are those of Stripe's
 * testing page (docs.stripe.com/testing, "Cards by brand"), each issued in the US. A payment
 * method the table does not name (one a flow made: a Checkout Session is paid as with
 * `pm_card_visa`) is the Visa.
 *
 * @module
 */

interface TestCard {
  brand: string;
  last4: string;
  funding: 'credit' | 'debit' | 'prepaid';
}

const VISA: TestCard = { brand: 'visa', last4: '4242', funding: 'credit' };

/** A US Visa credit card ending in `last4`. */
function visa(last4: string): TestCard {
  return { brand: 'visa', last4, funding: 'credit' };
}

const TEST_CARDS: Readonly<Record<string, TestCard>> = {
  pm_card_visa: VISA,
  pm_card_visa_debit: { brand: 'visa', last4: '5556', funding: 'debit' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', funding: 'credit' },
  pm_card_mastercard_debit: { brand: 'mastercard', last4: '8210', funding: 'debit' },
  pm_card_mastercard_prepaid: { brand: 'mastercard', last4: '5100', funding: 'prepaid' },
  pm_card_amex: { brand: 'amex', last4: '0005', funding: 'credit' },
  pm_card_discover: { brand: 'discover', last4: '1117', funding: 'credit' },
  pm_card_diners: { brand: 'diners', last4: '0004', funding: 'credit' },
  pm_card_jcb: { brand: 'jcb', last4: '0505', funding: 'credit' },
  pm_card_unionpay: { brand: 'unionpay', last4: '0005', funding: 'credit' },
  // The declining ones (declines.ts), each the Visa of its number on the testing page.
  pm_card_chargeDeclined: visa('0002'),
  pm_card_visa_chargeDeclined: visa('0002'),
  pm_card_chargeDeclinedInsufficientFunds: visa('9995'),
  pm_card_visa_chargeDeclinedInsufficientFunds: visa('9995'),
  pm_card_chargeDeclinedLostCard: visa('9987'),
  pm_card_visa_chargeDeclinedLostCard: visa('9987'),
  pm_card_chargeDeclinedStolenCard: visa('9979'),
  pm_card_visa_chargeDeclinedStolenCard: visa('9979'),
  pm_card_chargeDeclinedExpiredCard: visa('0069'),
  pm_card_chargeDeclinedIncorrectCvc: visa('0127'),
  pm_card_chargeDeclinedProcessingError: visa('0119'),
  pm_card_visa_chargeDeclinedVelocityLimitExceeded: visa('6975'),
  pm_card_chargeDeclinedFraudulent: visa('0019'),
  pm_card_radarBlock: visa('0019'),
  // Attaches, then declines each charge (declines.ts).
  pm_card_chargeCustomerFail: visa('0341'),
  // 3-D Secure (flows.ts, setup.ts).
  pm_card_authenticationRequired: visa('3184'),
  pm_card_authenticationRequiredOnSetup: visa('3155'),
  // The payment succeeds, then is disputed (disputes.ts).
  pm_card_createDispute: visa('0259'),
  pm_card_createDisputeInquiry: visa('1976'),
};

/** Whether `id` is one of Stripe's test payment methods the twin knows (`pm_card_visa`). */
export function isTestMethod(id: unknown): id is string {
  return typeof id === 'string' && Object.hasOwn(TEST_CARDS, id);
}

/**
 * The test payment method a PaymentMethod the twin holds was made from (a test method attached
 * to a customer is kept under a new id, as Stripe does), by its card; `pm_card_visa` for any other.
 */
export function testMethodOf(method: Record<string, unknown>): string {
  const card = method.card as Partial<TestCard> | undefined;
  for (const [id, one] of Object.entries(TEST_CARDS)) {
    if (one.brand === card?.brand && one.last4 === card?.last4 && one.funding === card?.funding) return id;
  }
  return 'pm_card_visa';
}

/**
 * A card PaymentMethod of test method `test` under `id`, as Stripe answers one: its card's brand,
 * last four digits, funding, fingerprint and expiry, attached to `customer` (or none).
 */
export function methodObject(test: string, id: string, customer: unknown, now: number): Record<string, unknown> {
  const { card } = cardDetails(test, 0, now) as { card: Record<string, unknown> };
  return {
    id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: null, email: null, name: null, phone: null },
    card: {
      brand: card.brand,
      checks: card.checks,
      country: card.country,
      display_brand: card.brand,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: card.fingerprint,
      funding: card.funding,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      wallet: null,
    },
    created: Math.floor(now / 1000),
    customer: customer ?? null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A card's `fingerprint`: 16 letters and digits, the same for the same card on every run (as Stripe's per account). */
function fingerprint(card: TestCard): string {
  let hash = 0x811c9dc5;
  let out = '';
  for (let round = 0; out.length < 16; round++) {
    for (const char of `${card.brand}${card.last4}${card.funding}${round}`) {
      hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
    }
    out += LETTERS[hash % LETTERS.length];
  }
  return out;
}

/**
 * A Charge's `payment_method_details` when `method` paid `amount`: the test card's brand,
 * `last4`, funding and network, a CVC check passed, and an expiry a year after `now` (the clock's
 * ms), in the fields Stripe's 2024-04-10 Charge gives a card.
 */
export function cardDetails(method: unknown, amount: number, now: number): Record<string, unknown> {
  const card = (typeof method === 'string' ? TEST_CARDS[method] : undefined) ?? VISA;
  const date = new Date(now);
  return {
    card: {
      amount_authorized: amount,
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      exp_month: date.getUTCMonth() + 1,
      exp_year: date.getUTCFullYear() + 1,
      extended_authorization: { status: 'disabled' },
      fingerprint: fingerprint(card),
      funding: card.funding,
      incremental_authorization: { status: 'unavailable' },
      installments: null,
      last4: card.last4,
      mandate: null,
      multicapture: { status: 'unavailable' },
      network: card.brand,
      network_token: { used: false },
      overcapture: { maximum_amount_capturable: amount, status: 'unavailable' },
      three_d_secure: null,
      wallet: null,
    },
    type: 'card',
  };
}
