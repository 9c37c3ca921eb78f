/**
 * The mockpoint web page: endpoint list, create form, detail view with the live
 * request journal. Routing uses the URL fragment (`#/e/{name}`), so every path
 * the page requests stays relative to wherever a proxy serves it.
 *
 * Routes: `#/` (home), `#/new` and `#/new/{name}` (the create form, with a name
 * to start with), `#/e/{name}` (detail) and `#/e/{name}/edit`.
 *
 * @module
 */
import { api, failureMessage, isApiFailure, serverLimits } from './api.js';
import { DeliveriesView } from './deliveries.js';
import { DetailView } from './detail.js';
import { h, replaceChildren, toast } from './dom.js';
import { type EndpointForm, endpointForm } from './form.js';
import { UnknownNames } from './inbox.js';
import { EndpointList } from './list.js';
import { report, startReporting } from './report.js';

startReporting();

/**
 * How often the list, the inbox and the shown endpoint are re-read while the page is visible: each
 * read is a conditional GET, about 750 bytes with headers when nothing changed. Every 3 s an idle
 * page took 6 KB per 10 s; every 5 s it takes 3 KB (issue #62: under 5 KB). The journal is pushed,
 * not polled: what arrives shows at once.
 */
const REFRESH_MS = 5000;

type Route =
  | { view: 'home' }
  | { view: 'deliveries' }
  | { view: 'new'; name: string }
  | { view: 'detail'; name: string; edit: boolean };

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function parseRoute(hash: string): Route {
  const detail = /^#\/e\/([^/]+)(\/edit)?$/.exec(hash);
  if (detail) return { view: 'detail', name: decode(detail[1] as string), edit: Boolean(detail[2]) };
  if (hash === '#/deliveries') return { view: 'deliveries' };
  const create = /^#\/new(?:\/([^/]*))?$/.exec(hash);
  if (create) return { view: 'new', name: decode(create[1] ?? '') };
  return { view: 'home' };
}

const detailHash = (name: string) => `#/e/${encodeURIComponent(name)}`;

function createPanel(list: EndpointList, name: string): { el: HTMLElement; form: EndpointForm } {
  const form = endpointForm({
    mode: 'create',
    name,
    onSaved: (record) => {
      toast(`Created ${record.name}`);
      void list.reload();
      location.hash = detailHash(record.name);
    },
  });
  const el = h(
    'section',
    { class: 'panel create', 'aria-labelledby': 'create-title' },
    h('a', { href: '#/', class: 'back' }, '← All endpoints'),
    h('h2', { id: 'create-title' }, 'New endpoint'),
    h(
      'p',
      { class: 'lead' },
      'A name, a JSON body, a status and a delay: the endpoint answers with exactly that, to any method.',
    ),
    form.el,
  );
  return { el, form };
}

function main(): void {
  const app = document.getElementById('app');
  const version = document.getElementById('version');
  if (!app) return;
  let create: EndpointForm | undefined;
  const list = new EndpointList({
    onNewAgain: () => {
      create?.focus();
      document.getElementById('create-title')?.scrollIntoView({ block: 'start' });
    },
  });
  const inbox = new UnknownNames({
    onCreated: (name) => {
      void list.reload();
      location.hash = detailHash(name);
    },
  });
  const view = h('div', { class: 'view', id: 'view' });
  replaceChildren(
    app,
    // One <main> (the layout) on every view, the phone's list-only home included.
    h('nav', { class: 'sidebar', 'aria-label': 'Endpoints' }, list.el, inbox.el),
    h('div', { class: 'content', id: 'main', tabIndex: -1 }, view),
  );

  let detail: DetailView | undefined;
  let deliveries: DeliveriesView | undefined;
  /** The fragment the page shows, to go back to when leaving would lose unsaved edits. */
  let shown = location.hash;
  let focusListAfterDelete = false;

  const route = () => {
    shown = location.hash;
    const current = parseRoute(location.hash);
    document.body.dataset.view = current.view;
    if (current.view !== 'deliveries') {
      deliveries?.stop();
      deliveries = undefined;
    }
    if (current.view === 'detail') {
      list.select(current.name);
      document.title = `${current.name} · mockpoint`;
      if (detail?.name === current.name) {
        detail.setEdit(current.edit);
        return;
      }
      detail?.stop();
      create = undefined;
      detail = new DetailView(current.name, {
        onSaved: (name) => {
          void list.reload();
          location.hash = detailHash(name);
        },
        onDeleted: () => {
          void list.reload();
          focusListAfterDelete = true;
          location.hash = '#/';
        },
        onCancelEdit: () => {
          location.hash = detailHash(current.name);
        },
      });
      replaceChildren(view, detail.el);
      detail.start(current.edit);
      return;
    }
    detail?.stop();
    detail = undefined;
    list.select(undefined);
    if (current.view === 'deliveries') {
      create = undefined;
      document.title = 'Deliveries · mockpoint';
      if (deliveries === undefined) {
        deliveries = new DeliveriesView();
        replaceChildren(view, deliveries.el);
        deliveries.start();
      }
      return;
    }
    document.title = current.view === 'new' ? 'New endpoint · mockpoint' : 'mockpoint';
    const panel = createPanel(list, current.view === 'new' ? current.name : '');
    create = panel.form;
    replaceChildren(view, panel.el);
    if (current.view === 'new') create.focus();
    if (focusListAfterDelete) {
      // The deleted endpoint's view is gone: the keyboard continues at the list.
      focusListAfterDelete = false;
      list.title.focus({ preventScroll: true });
    }
  };

  addEventListener('hashchange', () => {
    // Fragments that are not routes (the skip link's `#main`) leave the view as it is.
    if (location.hash !== '' && !location.hash.startsWith('#/')) return;
    if (detail?.isDirty() && location.hash !== shown) {
      const target = location.hash;
      history.replaceState(null, '', shown);
      detail.confirmDiscard(() => {
        location.hash = target;
      });
      return;
    }
    route();
  });
  addEventListener('beforeunload', (event) => {
    if (detail?.isDirty()) event.preventDefault();
  });
  route();
  void list.reload();
  void inbox.refresh();

  // Live updates: endpoints added, changed or deleted elsewhere (tests, other tabs) show up by themselves.
  const refresh = () => {
    if (document.visibilityState !== 'visible') return;
    void list.refresh();
    void inbox.refresh();
    void detail?.refresh();
  };
  setInterval(refresh, REFRESH_MS);
  document.addEventListener('visibilitychange', refresh);

  api.health().then(
    (health) => {
      serverLimits.maxDelayMs = health.limits.maxDelayMs;
      serverLimits.journalSize = health.limits.journalSize;
      if (version) version.textContent = `v${health.version} · ${health.store} store`;
    },
    (error: unknown) => {
      if (version) version.textContent = 'server unreachable';
      if (!isApiFailure(error)) report(error);
      else console.warn(`mockpoint: health check failed: ${failureMessage(error)}`);
    },
  );
}

main();
