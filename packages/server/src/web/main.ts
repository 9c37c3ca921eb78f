/**
 * The mockpoint web page: endpoint list, create form, detail view with the live
 * request journal. Routing uses the URL fragment (`#/e/{name}`), so every path
 * the page requests stays relative to wherever a proxy serves it.
 *
 * @module
 */
import { api } from './api.js';
import { showDetail } from './detail.js';
import { h, replaceChildren, toast } from './dom.js';
import { endpointForm } from './form.js';
import { EndpointList } from './list.js';
import { report, startReporting } from './report.js';

startReporting();

type Route = { view: 'home'; focus: boolean } | { view: 'detail'; name: string; edit: boolean };

function parseRoute(hash: string): Route {
  const match = /^#\/e\/([^/]+)(\/edit)?$/.exec(hash);
  if (match) {
    let name: string;
    try {
      name = decodeURIComponent(match[1] as string);
    } catch {
      name = match[1] as string;
    }
    return { view: 'detail', name, edit: Boolean(match[2]) };
  }
  return { view: 'home', focus: hash === '#/new' };
}

function createPanel(list: EndpointList): HTMLElement {
  const form = endpointForm({
    mode: 'create',
    onSaved: (record) => {
      toast(`Created ${record.name}`);
      void list.reload();
      location.hash = `#/e/${encodeURIComponent(record.name)}`;
    },
  });
  return h(
    'section',
    { class: 'panel create', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, 'New endpoint'),
    h(
      'p',
      { class: 'lead' },
      'A name, a JSON body, a status and a delay: the endpoint answers with exactly that, to any method.',
    ),
    form,
  );
}

function main(): void {
  const app = document.getElementById('app');
  const version = document.getElementById('version');
  if (!app) return;
  const list = new EndpointList();
  const view = h('div', { class: 'view', id: 'view' });
  replaceChildren(
    app,
    h('aside', { class: 'sidebar' }, list.el),
    h('main', { class: 'content', id: 'main', tabIndex: -1 }, view),
  );

  let stop: (() => void) | undefined;
  const route = () => {
    stop?.();
    stop = undefined;
    const current = parseRoute(location.hash);
    document.body.dataset.view = current.view;
    if (current.view === 'detail') {
      list.select(current.name);
      document.title = `${current.name} · mockpoint`;
      stop = showDetail(
        view,
        current.name,
        {
          onChanged: (name, deleted) => {
            void list.reload();
            if (deleted && parseRoute(location.hash).view === 'detail') location.hash = '#/';
            else if (!deleted) list.select(name);
          },
        },
        current.edit,
      );
    } else {
      list.select(undefined);
      document.title = 'mockpoint';
      replaceChildren(view, createPanel(list));
      if (current.focus) view.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
    }
  };
  // Fragments that are not routes (the skip link's `#main`) leave the view as it is.
  addEventListener('hashchange', () => {
    if (location.hash === '' || location.hash.startsWith('#/')) route();
  });
  route();
  void list.reload();

  api.health().then(
    (health) => {
      if (version) version.textContent = `v${health.version} · ${health.store} store`;
    },
    (error: unknown) => {
      if (version) version.textContent = 'server unreachable';
      if (!(error instanceof Error && error.name === 'ApiError')) report(error);
    },
  );
}

main();
