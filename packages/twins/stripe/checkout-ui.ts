/**
 * A Checkout Session's `ui_mode` by API version: `hosted` (a `url` to redirect to) or `embedded`
 * (Stripe.js mounts it with its `client_secret`, no `url`); `custom` (Elements with the Checkout
 * Sessions API) from `2025-03-31.basil`; and from `2026-03-25.dahlia` the same three named
 * `hosted_page`, `embedded_page` and `elements`, the old names refused, and `form` added (the embedded form, like `embedded_page` a `client_secret`; an older version reads it as `embedded`) (Stripe's changelog,
 * "Updates Checkout Session UI mode enum values"; stripe 23.1.0's `Session.UiMode`). The twin keeps
 * the old name and answers each version its own.
 *
 * @module
 */

import type { FlowError } from '@mockpoint/core/internal';
import { invalidRequest, missingParam } from './errors.js';

type Obj = Record<string, unknown>;

/** The first version with `custom`. */
const CUSTOM = '2025-03-31';
/** The first version whose names are `hosted_page`, `embedded_page`, `elements`. */
const RENAMED = '2026-03-25';

/** The names of `dahlia` and newer, by the name the twin keeps. */
const NEW_NAMES: Readonly<Record<string, string>> = {
  hosted: 'hosted_page',
  embedded: 'embedded_page',
  custom: 'elements',
};

function since(version: string | undefined, date: string): boolean {
  return version === undefined || version.slice(0, 10) >= date;
}

/** The names `version` takes, by the name the twin keeps. */
function namesAt(version: string | undefined): [string, string][] {
  const kept = since(version, CUSTOM) ? ['hosted', 'embedded', 'custom'] : ['hosted', 'embedded'];
  const named: [string, string][] = kept.map((name) => [
    since(version, RENAMED) ? (NEW_NAMES[name] as string) : name,
    name,
  ]);
  // dahlia's embedded form (Stripe's "Embedded form": CheckoutFormProvider and the client secret).
  return since(version, RENAMED) ? [...named, ['form', 'form']] : named;
}

/** Whether a session of `mode` (the kept name) is shown on the payer's page by Stripe.js: it has a `client_secret`. */
export function onOwnPage(mode: unknown): boolean {
  return mode === 'embedded' || mode === 'custom' || mode === 'form';
}

/**
 * The `ui_mode` a new session keeps (`hosted` when none is sent), or Stripe's refusal of a name
 * `version` does not take; an embedded or custom one needs `return_url` unless it never redirects,
 * and takes no `success_url` or `cancel_url` (those are a hosted page's).
 */
export function uiModeOf(sent: Obj, version: string | undefined): string | FlowError {
  const names = namesAt(version);
  const given = sent.ui_mode ?? names[0]?.[0];
  const kept = names.find(([name]) => name === given)?.[1];
  if (kept === undefined) {
    const listed = names.map(([name]) => name).join(', ');
    return invalidRequest(
      `Invalid ui_mode: must be one of ${listed} (the names of API version ${version ?? 'today'}).`,
      'ui_mode',
      'parameter_invalid_string',
    );
  }
  if (!onOwnPage(kept)) return kept;
  const shown = String(given);
  for (const hosted of ['success_url', 'cancel_url']) {
    if (typeof sent[hosted] === 'string') {
      return invalidRequest(
        `\`${hosted}\` is not allowed when \`ui_mode\` is \`${shown}\`; send \`return_url\` instead.`,
        hosted,
      );
    }
  }
  if (typeof sent.return_url !== 'string' && sent.redirect_on_completion !== 'never') return missingParam('return_url');
  return kept;
}

/** `session` (a `checkout.session`) with its `ui_mode` named as `version` names it. */
export function sessionAt(stored: Obj, version: string): Obj {
  let session = stored;
  if (SESSION_BILLING_MODE in session) {
    const { [SESSION_BILLING_MODE]: _, ...answered } = session;
    session = answered;
  }
  const mode = session.ui_mode;
  // Before dahlia there is no `form`: a form session is shown as the embedded session it is (its
  // `client_secret` mounted by Stripe.js), a name every older client reads.
  if (!since(version, RENAMED)) return mode === 'form' ? { ...session, ui_mode: 'embedded' } : session;
  if (typeof mode !== 'string' || NEW_NAMES[mode] === undefined) return session;
  return { ...session, ui_mode: NEW_NAMES[mode] };
}

/**
 * Where a subscription session keeps the `billing_mode` its subscription is made with (checkout.ts),
 * fixed when the session is made: no field of Stripe's, so never answered (sessionAt leaves it out).
 */
export const SESSION_BILLING_MODE = 'twin_subscription_billing_mode';
