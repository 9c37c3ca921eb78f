// The create → read → list → update → delete walk (test/helpers/document-walk.ts) over every
// collection the twin of OpenAI's document infers, with the default `unseen`, every answer checked
// against the document's response schemas (core's verify/answer-conformance.ts), on memory and
// LevelDB. The document is openai-node 7.5.0's `api_reference/openapi.transformed.yml`
// (Apache-2.0; OpenAPI 3.1, 182 paths, 288 operations), kept gzipped in fixtures/twins. The
// ledger below is what each collection comes to today (all 48 without a failing step; `absent`:
// a step the document has not): a step that starts or stops passing changes it. Every process
// listens on 127.0.0.1.
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, startDaemon } from './helpers/daemon.js';
import { summaryOf, walkDocument } from './helpers/document-walk.js';

const OPENAI = fileURLToPath(new URL('./fixtures/twins/openai-7.5.0.transformed.yml.gz', import.meta.url));

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

/** Each collection's walk as it comes out today. */
const LEDGER: Record<string, string> = {
  '/assistants': 'create read list update delete gone',
  '/audio/voice_consents': 'create read list update delete gone',
  '/batches': 'create read list | absent: update delete',
  '/chat/completions': 'create read list update delete gone',
  '/containers': 'create read list delete gone | absent: update',
  '/containers/{container_id}/files': 'create read list delete gone | absent: update',
  '/conversations/{conversation_id}/items': 'create read list delete gone | absent: update',
  '/evals': 'create read list update delete gone',
  '/evals/{eval_id}/runs': 'create read list update delete gone',
  '/evals/{eval_id}/runs/{run_id}/output_items': 'absent: create',
  '/files': 'create read list delete gone | absent: update',
  '/fine_tuning/checkpoints/{fine_tuned_model_checkpoint}/permissions': 'create list delete | absent: read update gone',
  '/fine_tuning/jobs': 'create read list | absent: update delete',
  '/models': 'absent: create',
  '/organization/admin_api_keys': 'create read list delete gone | absent: update',
  '/organization/certificates': 'create read list update delete gone',
  '/organization/groups': 'create read list update delete gone',
  '/organization/groups/{group_id}/roles': 'create read list delete gone | absent: update',
  '/organization/groups/{group_id}/users': 'create read list delete gone | absent: update',
  '/organization/invites': 'create read list delete gone | absent: update',
  '/organization/projects': 'create read list update | absent: delete',
  '/organization/projects/{project_id}/api_keys': 'absent: create',
  '/organization/projects/{project_id}/groups': 'create read list delete gone | absent: update',
  '/organization/projects/{project_id}/rate_limits': 'absent: create',
  '/organization/projects/{project_id}/service_accounts': 'create read list update delete gone',
  '/organization/projects/{project_id}/spend_alerts': 'create read list update delete gone',
  '/organization/projects/{project_id}/users': 'create read list update delete gone',
  '/organization/roles': 'create read list update delete gone',
  '/organization/spend_alerts': 'create read list update delete gone',
  '/organization/users': 'absent: create',
  '/organization/users/{user_id}/roles': 'create read list delete gone | absent: update',
  '/projects/{project_id}/groups/{group_id}/roles': 'create read list delete gone | absent: update',
  '/projects/{project_id}/roles': 'create read list update delete gone',
  '/projects/{project_id}/users/{user_id}/roles': 'create read list delete gone | absent: update',
  '/responses': 'create read delete gone | absent: list update',
  '/threads': 'create read update delete gone | absent: list',
  '/threads/{thread_id}/messages': 'create read list update delete gone',
  '/threads/{thread_id}/runs': 'create read list update | absent: delete',
  '/threads/{thread_id}/runs/{run_id}/steps': 'absent: create',
  '/vector_stores': 'create read list update delete gone',
  '/vector_stores/{vector_store_id}/file_batches': 'create read | absent: list update delete',
  '/vector_stores/{vector_store_id}/files': 'create read list update delete gone',
  '/conversations': 'create read update delete gone | absent: list',
  '/videos': 'create read list delete gone | absent: update',
  '/videos/characters': 'create read | absent: list update delete',
  '/skills': 'create read list update delete gone',
  '/skills/{skill_id}/versions': 'create read list delete gone | absent: update',
  '/chatkit/threads': 'absent: create',
};

describe.each(['memory', 'level'] as const)('the walk over the twin of OpenAI’s document (%s)', (store) => {
  it('creates, reads, lists, updates and deletes in every collection, every answer schema-valid', async () => {
    const args = store === 'memory' ? ['--memory'] : ['--data-dir', await makeTempDir()];
    const daemon = await startDaemon({ args });
    const walk = await walkDocument({ document: OPENAI, url: daemon.url, name: 'openai' });
    if (process.env.WALK_OUT) (await import('node:fs')).writeFileSync(process.env.WALK_OUT, JSON.stringify(walk));
    expect(walk.collections).toHaveLength(48);
    expect(walk.answers).toBeGreaterThan(200);
    expect(summaryOf(walk)).toEqual(LEDGER);
  }, 180_000);
});
