/**
 * The endpoint form, for creating (`PUT api/endpoint/add`, fails on a taken
 * name) and for editing (`PUT api/endpoints/{name}`, replaces). Fields are
 * checked as the user types with the server's rules; the server's own errors
 * are shown next to the field they concern. Escape cancels (an edit); the form
 * knows whether it holds unsaved changes, so they are never lost silently.
 *
 * @module
 */
import { type ApiFailure, api, type ExactRecord, endpointUrl, isApiFailure, JsonText, serverLimits } from './api.js';
import { h } from './dom.js';
import { formatJson } from './json-format.js';
import { report } from './report.js';
import { tokenField } from './token-field.js';
import {
  checkInteger,
  checkName,
  delayRange,
  formatBytes,
  type JsonResult,
  type Problem,
  parseJson,
  STATUS_RANGE,
} from './validate.js';

/** Options for {@link endpointForm}. */
export interface EndpointFormOptions {
  mode: 'create' | 'edit';
  /** The record being edited (edit mode), its data as the stored text. */
  initial?: ExactRecord;
  /** A name to start with (create mode), e.g. one requests were sent to before it existed. */
  name?: string;
  /** The name cannot change (create mode): a stored response added to a name answered by its routes. */
  fixedName?: boolean;
  /** The record as saved: its data is the text that was sent. */
  onSaved(record: ExactRecord, created: boolean): void;
  onCancel?(): void;
}

type FieldKey = 'name' | 'data' | 'status' | 'delay';

/** Which field a server error code belongs to. */
const FIELD_OF_CODE: Record<string, FieldKey> = {
  INVALID_NAME: 'name',
  NAME_TAKEN: 'name',
  INVALID_JSON: 'data',
  MISSING_DATA: 'data',
  INVALID_BODY: 'data',
  BODY_TOO_LARGE: 'data',
  INVALID_STATUS_CODE: 'status',
  INVALID_DELAY: 'delay',
};

const COMMON_STATUSES: [number, string][] = [
  [200, 'OK'],
  [201, 'Created'],
  [202, 'Accepted'],
  [204, 'No Content'],
  [301, 'Moved Permanently'],
  [302, 'Found'],
  [304, 'Not Modified'],
  [400, 'Bad Request'],
  [401, 'Unauthorized'],
  [403, 'Forbidden'],
  [404, 'Not Found'],
  [409, 'Conflict'],
  [422, 'Unprocessable Content'],
  [429, 'Too Many Requests'],
  [500, 'Internal Server Error'],
  [502, 'Bad Gateway'],
  [503, 'Service Unavailable'],
  [504, 'Gateway Timeout'],
];

interface Field {
  wrap: HTMLElement;
  control: HTMLInputElement | HTMLTextAreaElement;
  show(problem: Problem | Node): void;
}

function makeField(
  id: string,
  label: string,
  control: HTMLInputElement | HTMLTextAreaElement,
  hint?: Node | string,
  extra?: Node,
): Field {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  control.id = id;
  control.setAttribute('aria-describedby', hint ? `${hintId} ${errorId}` : errorId);
  const error = h('p', { class: 'field-error', id: errorId });
  const wrap = h(
    'div',
    { class: 'field', dataset: { field: id } },
    h('label', { for: id }, label),
    control,
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
    error,
    extra,
  );
  return {
    wrap,
    control,
    show(problem) {
      error.replaceChildren(problem ?? '');
      control.setAttribute('aria-invalid', problem ? 'true' : 'false');
      wrap.classList.toggle('invalid', Boolean(problem));
    },
  };
}

/** A number field of the endpoint form: a text input with the numeric keyboard on phones. */
function numberInput(name: string, value: number): HTMLInputElement {
  return h('input', { type: 'text', name, inputMode: 'numeric', autocomplete: 'off', value: String(value) });
}

function describeJson(value: unknown, text: string): string {
  const size = formatBytes(new TextEncoder().encode(text).byteLength);
  if (Array.isArray(value)) return `Valid JSON: array of ${value.length} item${value.length === 1 ? '' : 's'}, ${size}`;
  if (value !== null && typeof value === 'object') {
    const n = Object.keys(value).length;
    return `Valid JSON: object with ${n} key${n === 1 ? '' : 's'}, ${size}`;
  }
  return `Valid JSON: ${value === null ? 'null' : typeof value}, ${size}`;
}

/** A built form. */
export interface EndpointForm {
  el: HTMLFormElement;
  /** True when a field differs from what the form started with. */
  isDirty(): boolean;
  /** Focuses the first field to fill in. */
  focus(): void;
}

/** Builds the form. */
export function endpointForm(options: EndpointFormOptions): EndpointForm {
  const editing = options.mode === 'edit';
  const fixed = editing || options.fixedName === true;
  const prefix = editing ? 'edit' : options.fixedName ? 'add' : 'new';
  const parts = formParts(options, prefix, editing, fixed);
  const { nameInput, dataInput, statusInput, delayInput } = parts;
  const checks = fieldChecks(parts, editing);
  const form = formElement(options, parts, editing, fixed);
  listen(form, parts, checks, options);
  checks.checkNameField(false);
  checks.checkDataField();

  const controls = [nameInput, dataInput, statusInput, delayInput];
  const startValues = controls.map((c) => c.value);

  let busy = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    try {
      await submitForm(form, parts, checks, { options, editing, prefix, controls, startValues });
    } finally {
      busy = false;
    }
  });
  return {
    el: form,
    isDirty: () => controls.some((c, i) => c.value !== startValues[i]),
    focus: () => (editing || nameInput.value !== '' ? dataInput : nameInput).focus(),
  };
}

/** The form's fields, their controls and its buttons. */
function formParts(options: EndpointFormOptions, prefix: string, editing: boolean, fixed: boolean) {
  const initial = options.initial;
  const nameInput = h('input', {
    type: 'text',
    name: 'name',
    autocomplete: 'off',
    spellcheck: false,
    autocapitalize: 'off',
    readOnly: fixed,
    value: initial?.name ?? options.name ?? '',
    placeholder: 'e.g. payment-webhook',
  });
  const urlPreview = h('code', { class: 'url-preview' });
  const name = makeField(
    `${prefix}-name`,
    'Name',
    nameInput,
    editing
      ? 'The name cannot change; create a new endpoint for a new name.'
      : fixed
        ? 'The name of the routes it joins.'
        : 'Letters, digits, _ and -, up to 64.',
    h('p', { class: 'preview' }, 'Answers at ', urlPreview),
  );

  const dataInput = h('textarea', {
    name: 'data',
    rows: 9,
    spellcheck: false,
    autocapitalize: 'off',
    // The stored text laid out for reading: whitespace changes, no digit, escape or key's place does.
    value: initial ? formatJson(initial.data.text) : '{\n  "ok": true\n}',
    class: 'code',
  });
  const jsonStatus = h('span', { class: 'json-status', 'aria-live': 'polite' });
  const formatButton = h('button', { type: 'button', class: 'btn btn-small' }, 'Format');
  const data = makeField(
    `${prefix}-data`,
    'Response body (JSON)',
    dataInput,
    undefined,
    h('div', { class: 'json-tools' }, jsonStatus, formatButton),
  );

  const statusList = h(
    'datalist',
    { id: `${prefix}-status-list` },
    COMMON_STATUSES.map(([code, text]) => h('option', { value: String(code) }, `${code} ${text}`)),
  );
  const statusInput = numberInput('statusCode', initial?.statusCode ?? 200);
  statusInput.setAttribute('list', statusList.id);
  const status = makeField(`${prefix}-status`, 'Status code', statusInput, '200-599');

  const delayInput = numberInput('delay', initial?.delay ?? 0);
  const delay = makeField(`${prefix}-delay`, 'Delay (ms)', delayInput, 'Wait before answering');

  const fields: Record<FieldKey, Field> = { name, data, status, delay };
  const formError = h('div', { class: 'form-error', role: 'alert' });
  const submit = h(
    'button',
    { type: 'submit', class: 'btn btn-primary' },
    editing ? 'Save changes' : fixed ? 'Save stored response' : 'Create endpoint',
  );
  const cancel = options.onCancel
    ? h('button', { type: 'button', class: 'btn', onclick: () => options.onCancel?.() }, 'Cancel')
    : null;
  return {
    nameInput,
    urlPreview,
    dataInput,
    jsonStatus,
    formatButton,
    statusList,
    statusInput,
    delayInput,
    fields,
    formError,
    submit,
    cancel,
  };
}

type FormParts = ReturnType<typeof formParts>;

/** The form element, laid out. */
function formElement(
  options: EndpointFormOptions,
  parts: FormParts,
  editing: boolean,
  fixed: boolean,
): HTMLFormElement {
  const { fields, statusList, formError, submit, cancel } = parts;
  const { name, data, status, delay } = fields;
  const initial = options.initial;
  return h(
    'form',
    {
      class: 'endpoint-form',
      noValidate: true,
      'aria-label': editing
        ? `Edit ${initial?.name}`
        : fixed
          ? `Add a stored response to ${options.name}`
          : 'Create an endpoint',
    },
    h('div', { class: 'field-row' }, name.wrap),
    data.wrap,
    h('div', { class: 'field-row two' }, status.wrap, delay.wrap),
    statusList,
    formError,
    h(
      'div',
      { class: 'form-actions' },
      submit,
      cancel,
      h('span', { class: 'hint kbd-hint' }, h('kbd', null, 'Ctrl'), '+', h('kbd', null, 'Enter'), ' saves'),
    ),
  );
}

/** The checks of each field as the user types, showing their problems; the JSON last read. */
function fieldChecks(parts: FormParts, editing: boolean) {
  const { nameInput, urlPreview, dataInput, jsonStatus, statusInput, delayInput, fields } = parts;
  const { name, data, status, delay } = fields;
  const checkNameField = (required: boolean) => {
    const problem = editing ? undefined : checkName(nameInput.value, required);
    name.show(problem);
    urlPreview.textContent = nameInput.value && !problem ? endpointUrl(nameInput.value) : `${endpointUrl('')}{name}`;
    return problem;
  };
  let lastJson: JsonResult = parseJson(dataInput.value);
  const checkDataField = () => {
    lastJson = parseJson(dataInput.value);
    data.show(lastJson.ok ? undefined : lastJson.message);
    jsonStatus.textContent = lastJson.ok ? describeJson(lastJson.value, dataInput.value) : '';
    return lastJson.ok ? undefined : lastJson.message;
  };
  const checkStatusField = (required: boolean) => {
    const problem =
      statusInput.value === '' && !required ? undefined : checkInteger(statusInput.value, STATUS_RANGE).problem;
    status.show(problem);
    return problem;
  };
  const checkDelayField = (required: boolean) => {
    const problem =
      delayInput.value === '' && !required
        ? undefined
        : checkInteger(delayInput.value, delayRange(serverLimits.maxDelayMs)).problem;
    delay.show(problem);
    return problem;
  };
  return {
    checkNameField,
    checkDataField,
    checkStatusField,
    checkDelayField,
    /** The data field's JSON as last checked. */
    json: () => lastJson,
  };
}

type FieldChecks = ReturnType<typeof fieldChecks>;

/** Checks fields on input, formats on demand, saves on Ctrl+Enter and cancels on Escape. */
function listen(form: HTMLFormElement, parts: FormParts, checks: FieldChecks, options: EndpointFormOptions): void {
  const { nameInput, dataInput, statusInput, delayInput, formatButton } = parts;
  const { checkNameField, checkDataField, checkStatusField, checkDelayField } = checks;
  // Checked on input only: a server's answer (e.g. "name taken") stays until the field is edited.
  let jsonTimer: ReturnType<typeof setTimeout> | undefined;
  const flushJson = () => {
    if (jsonTimer === undefined) return;
    clearTimeout(jsonTimer);
    jsonTimer = undefined;
    checkDataField();
  };
  nameInput.addEventListener('input', () => checkNameField(false));
  dataInput.addEventListener('input', () => {
    clearTimeout(jsonTimer);
    // Large documents are checked after a short pause, small ones at once.
    jsonTimer = setTimeout(flushJson, dataInput.value.length > 200_000 ? 250 : 0);
  });
  dataInput.addEventListener('blur', flushJson);
  statusInput.addEventListener('input', () => checkStatusField(false));
  delayInput.addEventListener('input', () => checkDelayField(false));
  formatButton.addEventListener('click', () => {
    const result = parseJson(dataInput.value);
    if (result.ok) dataInput.value = formatJson(dataInput.value);
    checkDataField();
    dataInput.focus();
  });
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    } else if (event.key === 'Escape' && options.onCancel && !event.defaultPrevented) {
      event.preventDefault();
      options.onCancel();
    }
  });
}

/** What a submit needs besides the parts and checks. */
interface SubmitContext {
  options: EndpointFormOptions;
  editing: boolean;
  prefix: string;
  controls: (HTMLInputElement | HTMLTextAreaElement)[];
  startValues: string[];
}

/** Checks every field, then saves the record and shows the server's error where it belongs. */
async function submitForm(form: HTMLFormElement, parts: FormParts, checks: FieldChecks, context: SubmitContext) {
  const { nameInput, dataInput, statusInput, delayInput, fields, formError, submit } = parts;
  const { checkNameField, checkDataField, checkStatusField, checkDelayField } = checks;
  const { options, editing, prefix, controls, startValues } = context;
  formError.replaceChildren();
  const problems: [FieldKey, Problem][] = [
    ['name', checkNameField(true)],
    ['data', checkDataField()],
    ['status', checkStatusField(true)],
    ['delay', checkDelayField(true)],
  ];
  const first = problems.find(([, problem]) => problem);
  if (first || !checks.json().ok) {
    fields[first?.[0] ?? 'data'].control.focus();
    return;
  }
  // The editor's text goes as it is (whitespace outside strings aside): numbers, escapes and key order as typed.
  const record: ExactRecord = {
    name: nameInput.value,
    data: JsonText.parse(dataInput.value),
    statusCode: Number(statusInput.value.trim()),
    delay: Number(delayInput.value.trim()),
  };
  submit.disabled = true;
  const label = submit.textContent;
  submit.textContent = editing ? 'Saving…' : 'Creating…';
  try {
    const { name: n, ...definition } = record;
    // The server's answer parses data into JavaScript values; what was saved is the text sent.
    const answer = editing ? await api.put(n, definition) : await api.add(record);
    const saved: ExactRecord = { ...record, statusCode: answer.statusCode, delay: answer.delay };
    // What is saved is no longer an unsaved change.
    controls.forEach((c, i) => {
      startValues[i] = c.value;
    });
    options.onSaved(saved, !editing);
  } catch (error) {
    if (!isApiFailure(error)) {
      report(error);
      formError.textContent = `Something went wrong: ${(error as Error).message}`;
    } else if (error.code === 'UNAUTHORIZED') {
      formError.replaceChildren(tokenField({ id: `${prefix}-token`, onUse: () => form.requestSubmit() }));
    } else if (error.code === 'CONNECTION_FAILED') {
      formError.textContent = 'Cannot reach the mockpoint server. Is it running?';
    } else {
      const key = FIELD_OF_CODE[error.code];
      if (key === undefined) {
        formError.textContent = error.message;
      } else {
        fields[key].show(messageFor(error, record.name));
        fields[key].control.focus();
      }
    }
  } finally {
    submit.disabled = false;
    submit.textContent = label;
  }
}

function messageFor(error: ApiFailure, name: string): Node | string {
  switch (error.code) {
    case 'NAME_TAKEN':
      return h(
        'span',
        null,
        `An endpoint named “${name}” already exists. Choose another name, or `,
        h('a', { href: `#/e/${encodeURIComponent(name)}` }, 'open it'),
        ' to edit it.',
      );
    case 'BODY_TOO_LARGE':
      return `Too large for the server: ${error.message}`;
    default:
      return error.message.charAt(0).toUpperCase() + error.message.slice(1);
  }
}
