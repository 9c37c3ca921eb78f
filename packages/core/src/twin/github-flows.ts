/**
 * GitHub's flows beside the generic engine (SPEC §2.19): labels added to an
 * issue (`POST /repos/{owner}/{repo}/issues/{issue_number}/labels`) are kept on
 * it and emit `issues.labeled`, and every change emits GitHub's webhook event
 * to the repository's hooks (github-events.ts); a hook's `config.secret` is
 * answered masked (`********`), as GitHub answers it.
 *
 * @module
 */
import {
  githubEvent,
  githubEventTypes,
  githubHeaders,
  githubSubscribes,
  githubTarget,
  hookLimit,
} from './github-events.js';
import type { ActionOutcome, FlowError, TwinFlows } from './twin-flows.js';
import type { MatchedOperation } from './twin-model.js';

const ISSUE_LABELS = '/repos/{owner}/{repo}/issues/{issue_number}/labels';

/** The label objects of names (GitHub answers the issue's labels whole). */
function labelsOf(sent: Record<string, unknown>): Record<string, unknown>[] {
  const given = Array.isArray(sent.labels) ? sent.labels : [];
  return given.slice(0, 100).map((label) => {
    const name = typeof label === 'string' ? label : String((label as { name?: unknown })?.name ?? '');
    return {
      id: 0,
      node_id: '',
      url: '',
      name: name.slice(0, 100),
      color: 'ededed',
      default: false,
      description: null,
    };
  });
}

function addLabels(
  matched: MatchedOperation,
  issue: Record<string, unknown> | undefined,
  sent: Record<string, unknown>,
): ActionOutcome | undefined {
  if (matched.op.method !== 'POST' || matched.op.template !== ISSUE_LABELS || issue === undefined) return undefined;
  const had = Array.isArray(issue.labels) ? (issue.labels as Record<string, unknown>[]) : [];
  const added = labelsOf(sent).filter((label) => !had.some((old) => old.name === label.name));
  const labels = [...had, ...added];
  return {
    object: { ...issue, labels },
    answer: labels,
    event: added[0] === undefined ? undefined : { label: added[0] },
  };
}

/** The fields a create needs, by the collection's last path segment, and GitHub's resource name. */
const REQUIRED: Record<string, { resource: string; fields: string[] }> = {
  issues: { resource: 'Issue', fields: ['title'] },
  pulls: { resource: 'PullRequest', fields: ['head', 'base'] },
  labels: { resource: 'Label', fields: ['name'] },
  comments: { resource: 'IssueComment', fields: ['body'] },
  hooks: { resource: 'Hook', fields: ['config'] },
};

/** GitHub's `422 Validation Failed`, with an `errors` entry for each field missing or empty. */
function check(template: string, sent: Record<string, unknown>): FlowError | undefined {
  const wanted = REQUIRED[template.split('/').at(-1) ?? ''];
  if (wanted === undefined) return undefined;
  const missing = wanted.fields.filter(
    (field) => sent[field] === undefined || sent[field] === null || sent[field] === '',
  );
  if (missing.length === 0) return undefined;
  return {
    status: 422,
    type: 'invalid_request_error',
    code: 'missing_field',
    message: 'Validation Failed',
    extra: { errors: missing.map((field) => ({ resource: wanted.resource, code: 'missing_field', field })) },
  };
}

/** A new issue or pull request: open, with the labels sent (names), none else. */
function created(template: string, object: Record<string, unknown>, sent: Record<string, unknown>): undefined {
  const last = template.split('/').at(-1);
  if (last !== 'issues' && last !== 'pulls') return undefined;
  object.state = typeof sent.state === 'string' ? sent.state : 'open';
  object.labels = labelsOf(sent);
  for (const field of ['closed_at', 'merged_at', 'closed_by']) if (field in object) object[field] = null;
  if ('comments' in object) object.comments = 0;
  return undefined;
}

/** A hook as GitHub answers it: its `config.secret` masked (kept whole for signing). */
function shown(template: string, object: Record<string, unknown>): Record<string, unknown> {
  const config = object.config;
  if (!template.endsWith('/hooks') || typeof config !== 'object' || config === null) return object;
  if ((config as Record<string, unknown>).secret === undefined) return object;
  return { ...object, config: { ...config, secret: '********' } };
}

export const githubFlows: TwinFlows = {
  check,
  created,
  shown,
  events: {
    eventsTemplate: '',
    endpointsTemplate: '/repos/{owner}/{repo}/hooks',
    scheme: 'github',
    types: githubEventTypes,
    event: githubEvent,
    subscribes: githubSubscribes,
    target: githubTarget,
    headers: githubHeaders,
    limit: hookLimit,
  },
  action: addLabels,
};
