/**
 * The form that sends one webhook delivery (`POST api/deliveries`): the URL, the
 * method, the body as exact text (sent as its bytes, never parsed and
 * re-serialised) with its Content-Type, a signing scheme and secret, a `tamper`
 * mode (a deliberately bad delivery the receiver must refuse) and the retry
 * schedule. The server checks everything; its error is shown next to the
 * field it concerns.
 *
 * @module
 */
import { api, failureMessage, isApiFailure } from './api.js';
import { h } from './dom.js';
import { report } from './report.js';
import { fillSchemes } from './signature-schemes.js';

/** What the form needs to know of a sent delivery. */
export interface SentDelivery {
  id: string;
}

type Key = 'url' | 'body' | 'scheme' | 'secret' | 'tamper' | 'retry' | 'form';

/** Which field a server error code belongs to. */
const FIELD_OF_CODE: Record<string, Key> = {
  INVALID_DELIVERY_URL: 'url',
  DELIVERY_HOST_NOT_ALLOWED: 'url',
  INVALID_BODY: 'body',
  BODY_TOO_LARGE: 'body',
  INVALID_HEADER: 'body',
  UNKNOWN_SIGNATURE_SCHEME: 'scheme',
  INVALID_SIGNATURE_OPTIONS: 'scheme',
  INVALID_SIGNATURE_SECRET: 'secret',
  INVALID_TAMPER: 'tamper',
  INVALID_RETRY: 'retry',
};

const TAMPERS = ['body', 'signature', 'secret', 'stale', 'duplicate'] as const;

function select(id: string, options: [string, string][]): HTMLSelectElement {
  return h(
    'select',
    { id, name: id },
    options.map(([value, label]) => h('option', { value }, label)),
  );
}

/** Builds the form; `onSent` is called with each accepted delivery. */
export function deliveryForm(onSent: (delivery: SentDelivery) => void): HTMLFormElement {
  const errors = new Map<Key, HTMLElement>();
  const field = (key: Key, label: string, control: HTMLElement, hint?: string): HTMLElement => {
    const id = control.id;
    const error = h('p', { class: 'field-error', id: `${id}-error` });
    errors.set(key, error);
    control.setAttribute('aria-describedby', hint ? `${id}-hint ${id}-error` : `${id}-error`);
    return h(
      'div',
      { class: 'field', dataset: { field: key } },
      h('label', { for: id }, label),
      control,
      hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null,
      error,
    );
  };
  const url = h('input', {
    id: 'delivery-url',
    name: 'url',
    type: 'url',
    required: true,
    placeholder: 'http://127.0.0.1:3000/webhooks',
    autocomplete: 'off',
    spellcheck: false,
  });
  const method = select('delivery-method', [
    ['POST', 'POST'],
    ['PUT', 'PUT'],
    ['PATCH', 'PATCH'],
  ]);
  const contentType = h('input', {
    id: 'delivery-content-type',
    name: 'content-type',
    value: 'application/json',
    autocomplete: 'off',
    spellcheck: false,
  });
  const body = h('textarea', {
    id: 'delivery-body',
    name: 'body',
    rows: 6,
    spellcheck: false,
    value: '{"type":"order.paid","data":{"id":42}}',
  });
  // The server's schemes (signature-schemes.ts), but those that need settings the form does not ask for.
  const unsigned: [string, string] = ['', 'Unsigned'];
  const scheme = select('delivery-scheme', [unsigned, ['standard', 'standard']]);
  scheme.value = 'standard';
  void fillSchemes(scheme, [unsigned], (one) => !one.settings);
  const secret = h('input', {
    id: 'delivery-secret',
    name: 'secret',
    autocomplete: 'off',
    spellcheck: false,
    placeholder: 'whsec_…',
  });
  const tamper = select('delivery-tamper', [
    ['', 'None: a valid delivery'],
    ...TAMPERS.map((t): [string, string] => [t, t]),
  ]);
  const retry = select('delivery-retry', [
    ['', 'No retry'],
    ['standard', 'Standard (5 s, 5 min, 30 min, 2 h, …)'],
  ]);
  const formError = h('p', { class: 'field-error', role: 'alert' });
  errors.set('form', formError);
  const send = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Send');

  const signed = () => {
    const on = scheme.value !== '';
    secret.disabled = !on;
    tamper.disabled = !on;
    if (!on) tamper.value = '';
  };
  scheme.addEventListener('change', signed);
  signed();

  const form = h(
    'form',
    { class: 'endpoint-form delivery-form', noValidate: true, 'aria-labelledby': 'send-title' },
    field('url', 'Receiver URL', url, 'Loopback addresses, or hosts listed in MOCKPOINT_DELIVERY_ALLOW_HOSTS.'),
    h(
      'div',
      { class: 'field-row' },
      h('div', { class: 'field' }, h('label', { for: method.id }, 'Method'), method),
      h('div', { class: 'field' }, h('label', { for: contentType.id }, 'Content-Type'), contentType),
    ),
    field('body', 'Body (sent exactly as written)', body),
    h(
      'div',
      { class: 'field-row' },
      field('scheme', 'Signature scheme', scheme),
      field('secret', 'Secret', secret, 'whsec_… for standard; the signing secret for the others.'),
    ),
    h(
      'div',
      { class: 'field-row' },
      field('tamper', 'Tamper', tamper, 'A bad delivery the receiver must refuse.'),
      field('retry', 'Retries', retry),
    ),
    formError,
    h('div', { class: 'actions' }, send),
  );

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    for (const error of errors.values()) error.textContent = '';
    for (const control of [url, body, scheme, secret, tamper, retry]) control.removeAttribute('aria-invalid');
    if (url.value.trim() === '') {
      (errors.get('url') as HTMLElement).textContent = 'Enter the URL of the receiver under test.';
      url.setAttribute('aria-invalid', 'true');
      url.focus();
      return;
    }
    const headers: Record<string, string> = {};
    if (contentType.value.trim() !== '') headers['content-type'] = contentType.value.trim();
    const input = {
      url: url.value.trim(),
      method: method.value as 'POST' | 'PUT' | 'PATCH',
      body: body.value,
      headers,
      ...(scheme.value === '' ? {} : { sign: { scheme: scheme.value, secret: secret.value } }),
      ...(tamper.value === '' ? {} : { tamper: tamper.value as (typeof TAMPERS)[number] }),
      ...(retry.value === '' ? {} : { retry: 'standard' as const }),
    };
    send.disabled = true;
    api.deliver(input).then(
      (delivery) => {
        send.disabled = false;
        onSent(delivery);
      },
      (error: unknown) => {
        send.disabled = false;
        if (!isApiFailure(error)) report(error);
        const code = (error as { code?: string }).code ?? '';
        const key = FIELD_OF_CODE[code] ?? 'form';
        (errors.get(key) as HTMLElement).textContent = failureMessage(error);
        const control = { url, body, scheme, secret, tamper, retry, form: undefined }[key];
        control?.setAttribute('aria-invalid', 'true');
        control?.focus();
      },
    );
  });
  return form;
}
