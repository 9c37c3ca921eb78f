/**
 * The deliveries view (`#/deliveries`): a form to send one signed webhook to a
 * receiver under test, and the recent deliveries, newest first
 * (`GET api/deliveries`), each with its attempts — when, the receiver's status,
 * how long it took, the error, and the receiver's answer (headers and body).
 *
 * Live: while the view is shown and the tab visible, the list is read again
 * every second, conditionally (an unchanged list is a `304` with no body), and
 * at once after a send. A delivery that changed is rebuilt in place (its open
 * parts stay open); the others are not touched, so nothing moves under the
 * pointer but the delivery that changed.
 *
 * @module
 */
import type { Delivery, DeliveryAttempt } from '@mockpoint/core/client';
import { failureMessage, isApiFailure } from './api.js';
import { conditionalGet } from './conditional-get.js';
import { deliveryForm } from './delivery-form.js';
import { announce, formatDateTime, formatTime, h, replaceChildren } from './dom.js';
import { statusBadge } from './list.js';
import { report } from './report.js';

/** How often the list is read again while shown. */
const REFRESH_MS = 1000;
/** Deliveries listed. */
const LIMIT = 50;

const STATE_TEXT: Record<Delivery['state'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
  'not-sent': 'Not sent',
};

function attemptRow(attempt: DeliveryAttempt): HTMLElement {
  const answer =
    attempt.headers !== undefined || attempt.body !== undefined
      ? h(
          'details',
          { class: 'attempt-answer' },
          h('summary', null, "Receiver's answer"),
          h(
            'pre',
            { class: 'code' },
            Object.entries(attempt.headers ?? {})
              .map(([name, value]) => `${name}: ${value}`)
              .join('\n'),
            attempt.headers && Object.keys(attempt.headers).length > 0 ? '\n\n' : '',
            attempt.body ?? '',
            attempt.bodyTruncated ? '\n… (truncated)' : '',
          ),
        )
      : null;
  return h(
    'li',
    { class: 'attempt', dataset: { n: String(attempt.n) } },
    h(
      'div',
      { class: 'attempt-line' },
      h('span', { class: 'attempt-n' }, `#${attempt.n}`),
      h('time', { dateTime: attempt.at, title: formatDateTime(attempt.at) }, formatTime(attempt.at)),
      attempt.status === undefined ? h('span', { class: 'badge s5xx' }, 'no answer') : statusBadge(attempt.status),
      h('span', { class: 'attempt-duration' }, `${attempt.durationMs} ms`),
      attempt.tamper ? h('span', { class: 'tag' }, `tamper: ${attempt.tamper}`) : null,
    ),
    attempt.error ? h('p', { class: 'attempt-error' }, `${attempt.error.code}: ${attempt.error.message}`) : null,
    answer,
  );
}

function deliveryCard(delivery: Delivery): HTMLElement {
  const sign = delivery.sign ? `signed ${delivery.sign.scheme}` : 'unsigned';
  return h(
    'li',
    { class: `delivery state-${delivery.state}`, dataset: { id: delivery.id } },
    h(
      'div',
      { class: 'delivery-head' },
      h('span', { class: `state state-${delivery.state}` }, STATE_TEXT[delivery.state]),
      h('span', { class: 'delivery-target' }, `${delivery.method} ${delivery.url}`),
    ),
    h(
      'p',
      { class: 'delivery-meta' },
      `${sign}${delivery.tamper ? `, tamper ${delivery.tamper}` : ''}, ${delivery.bodyBytes} bytes, `,
      'created ',
      h(
        'time',
        { dateTime: delivery.createdAt, title: formatDateTime(delivery.createdAt) },
        formatTime(delivery.createdAt),
      ),
      delivery.webhookId ? ` · ${delivery.webhookId}` : '',
      delivery.nextAttemptAt ? ` · next attempt at ${formatTime(delivery.nextAttemptAt)}` : '',
    ),
    delivery.outcome ? h('p', { class: 'delivery-outcome' }, delivery.outcome.message) : null,
    delivery.outcome?.hint ? h('p', { class: 'delivery-hint' }, `To send it: ${delivery.outcome.hint}.`) : null,
    h(
      'ol',
      { class: 'attempts', 'aria-label': `Attempts of ${delivery.id}` },
      delivery.attempts.map((attempt) => attemptRow(attempt)),
    ),
  );
}

/** The view. */
export class DeliveriesView {
  readonly el: HTMLElement;
  readonly #list: HTMLOListElement;
  readonly #status: HTMLElement;
  /** Each shown delivery's element and the JSON it was built from. */
  readonly #shown = new Map<string, { el: HTMLElement; json: string }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #loading = false;
  #loaded = false;

  constructor() {
    this.#list = h('ol', { class: 'delivery-list', 'aria-label': 'Deliveries, newest first' });
    this.#status = h('p', { class: 'empty', role: 'status' }, 'Loading…');
    this.el = h(
      'div',
      { class: 'deliveries-view' },
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'send-title' },
        h('h2', { id: 'send-title' }, 'Send a webhook'),
        h(
          'p',
          { class: 'lead' },
          'A signed delivery to the receiver you are testing: every attempt and its answer is listed below.',
        ),
        deliveryForm((delivery) => {
          announce(`Delivery ${delivery.id} sent`);
          void this.refresh();
        }),
      ),
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'deliveries-title' },
        h('div', { class: 'panel-head' }, h('h2', { id: 'deliveries-title' }, 'Deliveries')),
        this.#status,
        this.#list,
      ),
    );
  }

  start(): void {
    void this.refresh();
    this.#timer ??= setInterval(() => {
      if (document.visibilityState === 'visible') void this.refresh();
    }, REFRESH_MS);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Reads the list (conditionally) and updates what changed. */
  async refresh(): Promise<void> {
    if (this.#loading) return;
    this.#loading = true;
    try {
      const { value, changed } = await conditionalGet<{ deliveries: Delivery[] }>(`api/deliveries?limit=${LIMIT}`);
      if (changed || !this.#loaded) this.#render(value.deliveries);
      this.#loaded = true;
    } catch (error) {
      if (!isApiFailure(error)) report(error);
      this.#status.hidden = false;
      this.#status.textContent = `Could not load the deliveries: ${failureMessage(error)}`;
    } finally {
      this.#loading = false;
    }
  }

  #render(deliveries: Delivery[]): void {
    this.#status.hidden = deliveries.length > 0;
    this.#status.textContent = deliveries.length > 0 ? '' : 'No deliveries yet. Send one with the form above.';
    const keep = new Set(deliveries.map((d) => d.id));
    for (const [id, shown] of this.#shown) {
      if (!keep.has(id)) {
        shown.el.remove();
        this.#shown.delete(id);
      }
    }
    // Newest first: walk oldest to newest, each new one going on top.
    let above: HTMLElement | null = null;
    for (let i = deliveries.length - 1; i >= 0; i--) {
      const delivery = deliveries[i] as Delivery;
      const json = JSON.stringify(delivery);
      const shown = this.#shown.get(delivery.id);
      let el: HTMLElement;
      if (shown === undefined) {
        el = deliveryCard(delivery);
        if (above === null) this.#list.append(el);
        else this.#list.insertBefore(el, above);
      } else if (shown.json !== json) {
        el = deliveryCard(delivery);
        // Open answers stay open.
        for (const open of shown.el.querySelectorAll<HTMLElement>('li.attempt:has(> details[open])')) {
          el.querySelector(`li.attempt[data-n="${open.dataset.n}"] > details`)?.setAttribute('open', '');
        }
        shown.el.replaceWith(el);
      } else {
        el = shown.el;
      }
      this.#shown.set(delivery.id, { el, json });
      above = el;
    }
    if (deliveries.length === 0) replaceChildren(this.#list);
  }
}
