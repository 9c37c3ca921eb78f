/**
 * The signature check of one name, in its detail view: what is checked now
 * (scheme, each secret as the server's masked hint, tolerance, enforced or not)
 * and a form to set it (scheme, secret — a password field, emptied once saved,
 * never shown again —, tolerance, enforce, and the generic `hmac` scheme's
 * header, algorithm, encoding and prefix); Remove, asked first. Errors from the
 * API show with their code.
 *
 * @module
 */
import { api, isApiFailure, type SignatureInput, type SignatureView } from './api.js';
import { h, onEscape, onSubmit, toast } from './dom.js';
import { PanelWrites, panel, problemSlot } from './panel-actions.js';
import { report } from './report.js';
import { fillSchemes } from './signature-schemes.js';

/** A labelled field (`.field`): the label, then the control. */
function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: control.id }, label),
    control,
    hint ? h('p', { class: 'hint', id: `${control.id}-hint` }, hint) : null,
  );
}

function select(id: string, options: readonly string[], value: string): HTMLSelectElement {
  return h(
    'select',
    { id, name: id },
    options.map((o) => h('option', { value: o, selected: o === value }, o)),
  );
}

/** The check in one line: `standard · secret whsec_…LaSw · 300 s tolerance · enforced (401)`. */
function describe(check: SignatureView): string {
  const secrets = check.secrets.map((s) => s.hint || '(short secret)').join(', ');
  const hmac = check.hmac ? ` (${check.hmac.header}, ${check.hmac.algorithm}, ${check.hmac.encoding})` : '';
  return [
    `${check.scheme}${hmac}`,
    `${check.secrets.length === 1 ? 'secret' : 'secrets'} ${secrets}`,
    `${check.toleranceSec} s tolerance`,
    check.enforce ? 'enforced: anything not valid is answered 401' : 'not enforced: only recorded',
  ].join(' · ');
}

/** The signature panel of `name`. */
export class SignatureCheckView {
  readonly el: HTMLElement;
  readonly #name: string;
  readonly #current: HTMLElement;
  readonly #form: HTMLFormElement;
  readonly #toggle: HTMLButtonElement;
  readonly #removeButton: HTMLButtonElement;
  readonly #writes: PanelWrites;
  readonly #scheme: HTMLSelectElement;
  readonly #secret: HTMLInputElement;
  readonly #tolerance: HTMLInputElement;
  readonly #enforce: HTMLInputElement;
  readonly #hmac: HTMLElement;
  readonly #header: HTMLInputElement;
  readonly #algorithm: HTMLSelectElement;
  readonly #encoding: HTMLSelectElement;
  readonly #prefix: HTMLInputElement;
  readonly #save: HTMLButtonElement;
  #shown: string | undefined;
  /** The schemes that take the generic HMAC settings (header, algorithm, encoding, prefix), as the server lists them. */
  #withSettings = new Set(['hmac']);

  constructor(name: string) {
    this.#name = name;
    this.#current = h('p', { class: 'signature-current', id: 'signature-current' });
    const problem = problemSlot('signature-problem');
    this.#writes = new PanelWrites(problem, 'signature-token');
    // The first of the server's list until it is read (signature-schemes.ts).
    this.#scheme = select('signature-scheme', ['standard'], 'standard');
    void fillSchemes(this.#scheme, []).then((schemes) => {
      if (schemes.length > 0) this.#withSettings = new Set(schemes.filter((s) => s.settings).map((s) => s.name));
      this.#hmac.hidden = !this.#withSettings.has(this.#scheme.value);
    });
    this.#secret = h('input', {
      type: 'password',
      id: 'signature-secret',
      name: 'secret',
      autocomplete: 'off',
      spellcheck: false,
      'aria-describedby': 'signature-secret-hint',
    });
    this.#tolerance = h('input', {
      type: 'number',
      id: 'signature-tolerance',
      name: 'toleranceSec',
      min: '0',
      max: '86400',
      value: '300',
      inputMode: 'numeric',
    });
    this.#enforce = h('input', { type: 'checkbox', id: 'signature-enforce', name: 'enforce' });
    this.#header = h('input', {
      id: 'signature-header',
      name: 'header',
      placeholder: 'X-Signature',
      autocomplete: 'off',
    });
    this.#algorithm = select('signature-algorithm', ['sha256', 'sha1', 'sha512'], 'sha256');
    this.#encoding = select('signature-encoding', ['hex', 'base64'], 'hex');
    this.#prefix = h('input', { id: 'signature-prefix', name: 'prefix', placeholder: 'sha256=', autocomplete: 'off' });
    this.#hmac = h(
      'fieldset',
      { class: 'signature-hmac', hidden: true },
      h('legend', null, 'HMAC settings'),
      h(
        'div',
        { class: 'field-row two' },
        field('Header', this.#header),
        field('Prefix (optional)', this.#prefix),
        field('Algorithm', this.#algorithm),
        field('Encoding', this.#encoding),
      ),
    );
    this.#scheme.addEventListener('change', () => {
      this.#hmac.hidden = !this.#withSettings.has(this.#scheme.value);
    });
    this.#save = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save check');
    const cancel = h('button', { type: 'button', class: 'btn' }, 'Cancel');
    cancel.addEventListener('click', () => this.#open(false));
    this.#form = h(
      'form',
      { class: 'signature-form', id: 'signature-form', noValidate: true, hidden: true },
      h(
        'div',
        { class: 'field-row two' },
        field('Scheme', this.#scheme),
        field('Tolerance (seconds)', this.#tolerance),
      ),
      field(
        'Secret',
        this.#secret,
        'Sent to the server once; it shows only a hint of it afterwards, so changing the check needs the secret again.',
      ),
      h(
        'label',
        { class: 'check', for: 'signature-enforce' },
        this.#enforce,
        ' Enforce: answer 401 to anything not valid',
      ),
      this.#hmac,
      h('div', { class: 'actions' }, this.#save, cancel),
    );
    onSubmit(this.#form, () => void this.#put());
    onEscape(this.#form, () => this.#open(false));
    this.#toggle = h(
      'button',
      { type: 'button', class: 'btn', 'aria-expanded': 'false', 'aria-controls': 'signature-form' },
      'Set check',
    );
    this.#toggle.addEventListener('click', () => this.#open(this.#form.hidden));
    this.#removeButton = h('button', { type: 'button', class: 'btn btn-danger', hidden: true }, 'Remove check');
    this.#removeButton.addEventListener('click', () => this.#confirmRemove());
    this.el = panel(
      'signature',
      'Signature check',
      null,
      this.#current,
      h('div', { class: 'actions signature-actions' }, this.#toggle, this.#removeButton),
      problem,
      this.#form,
    );
  }

  /** Reads the check; resolves with whether there is one (undefined when it cannot be read). */
  async load(): Promise<boolean | undefined> {
    let check: SignatureView | undefined;
    try {
      check = await api.getSignature(this.#name);
    } catch (error) {
      if (isApiFailure(error) && error.code === 'NOT_FOUND') check = undefined;
      else {
        if (!isApiFailure(error)) report(error);
        return undefined;
      }
    }
    this.#show(check);
    return check !== undefined;
  }

  #show(check: SignatureView | undefined): void {
    const key = JSON.stringify(check ?? null);
    if (key === this.#shown) return;
    this.#shown = key;
    this.#current.textContent = check
      ? describe(check)
      : 'Off: requests are not checked. Set a check to see in the journal whether each is validly signed.';
    this.#current.classList.toggle('empty', check === undefined);
    this.#removeButton.hidden = check === undefined;
    this.#toggle.textContent = check ? 'Change check' : 'Set check';
    if (check && this.#form.hidden) {
      // The form starts from what is checked now (but the secret, which the server never shows).
      // Its scheme, even before the server's list is read (or one no longer listed).
      if (![...this.#scheme.options].some((option) => option.value === check.scheme))
        this.#scheme.append(h('option', { value: check.scheme }, check.scheme));
      this.#scheme.value = check.scheme;
      this.#tolerance.value = String(check.toleranceSec);
      this.#enforce.checked = check.enforce;
      this.#hmac.hidden = !this.#withSettings.has(check.scheme);
      if (check.hmac) {
        this.#header.value = check.hmac.header;
        this.#algorithm.value = check.hmac.algorithm;
        this.#encoding.value = check.hmac.encoding;
        this.#prefix.value = check.hmac.prefix;
      }
    }
  }

  #open(open: boolean): void {
    this.#form.hidden = !open;
    this.#toggle.setAttribute('aria-expanded', String(open));
    if (open) this.#scheme.focus();
    else {
      this.#secret.value = '';
      this.#toggle.focus();
    }
  }

  /** The form as the API's input; the tolerance as typed (a bad one is the server's to refuse, with its code). */
  #input(): SignatureInput {
    const input: SignatureInput = {
      scheme: this.#scheme.value as SignatureInput['scheme'],
      secret: this.#secret.value,
      enforce: this.#enforce.checked,
    };
    const tolerance = this.#tolerance.value.trim();
    if (tolerance !== '') input.toleranceSec = Number(tolerance);
    if (this.#withSettings.has(input.scheme)) {
      input.hmac = {
        header: this.#header.value.trim(),
        algorithm: this.#algorithm.value as NonNullable<SignatureInput['hmac']>['algorithm'],
        encoding: this.#encoding.value as NonNullable<SignatureInput['hmac']>['encoding'],
      };
      if (this.#prefix.value !== '') input.hmac.prefix = this.#prefix.value;
    }
    return input;
  }

  async #put(): Promise<void> {
    await this.#writes.run(this.#save, 'save the check', async () => {
      const saved = await api.setSignature(this.#name, this.#input());
      this.#show(saved);
      toast(`Signatures of ${this.#name} are checked (${saved.scheme})`);
      this.#open(false);
    });
  }

  /** Asks inline before removing the check; Escape or "Keep it" leaves it. */
  #confirmRemove(): void {
    this.#writes.confirm(this.#removeButton, {
      text: `Stop checking the signatures of requests to “${this.#name}”?`,
      label: 'Remove the signature check',
      confirm: 'Remove it',
      keep: 'Keep it',
      what: 'remove the check',
      write: () => api.clearSignature(this.#name),
      done: async () => {
        toast(`Signatures of ${this.#name} are no longer checked`);
        await this.load();
      },
    });
  }
}
