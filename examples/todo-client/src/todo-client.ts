/**
 * The code under test: a small client library for a todo service that speaks
 * json-server's REST conventions (`GET /todos?done=true&_page=1&_limit=10`,
 * `POST /todos`, `PATCH /todos/1`, `DELETE /todos/1`, the total in
 * `X-Total-Count`). It knows nothing of mockpoint: it is given a base URL.
 */
export interface Todo {
  id: number;
  title: string;
  done: boolean;
}

/** One page of todos and how many there are in all. */
export interface TodoPage {
  todos: Todo[];
  total: number;
}

export class TodoError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function createTodoClient(baseUrl: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<{ data: T; response: Response }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new TodoError(response.status, `${method} ${path} answered ${response.status}`);
    return { data: (await response.json()) as T, response };
  }

  return {
    /** Creates a todo; the service gives it its id. */
    async add(title: string): Promise<Todo> {
      return (await call<Todo>('POST', '/todos', { title, done: false })).data;
    },
    /** One page of todos, newest first; only open or only done ones when `done` is given. */
    async page(page: number, options: { done?: boolean; size?: number } = {}): Promise<TodoPage> {
      const query = new URLSearchParams({ _sort: 'id', _order: 'desc', _page: String(page) });
      query.set('_limit', String(options.size ?? 10));
      if (options.done !== undefined) query.set('done', String(options.done));
      const { data, response } = await call<Todo[]>('GET', `/todos?${query}`);
      return { todos: data, total: Number(response.headers.get('x-total-count')) };
    },
    /** Todos whose title contains `text`, any case. */
    async search(text: string): Promise<Todo[]> {
      return (await call<Todo[]>('GET', `/todos?q=${encodeURIComponent(text)}`)).data;
    },
    async complete(id: number): Promise<Todo> {
      return (await call<Todo>('PATCH', `/todos/${id}`, { done: true })).data;
    },
    async remove(id: number): Promise<void> {
      await call('DELETE', `/todos/${id}`);
    },
    async get(id: number): Promise<Todo> {
      return (await call<Todo>('GET', `/todos/${id}`)).data;
    },
  };
}
