/**
 * Comments over HTTP in the seeded workspace "Case Works": threads on records of every target
 * type, the restricted Markdown, mentions, the duplicate window (4 s in the test stack), threaded
 * and flat pages with deep replies, edits by the author only, soft deletion by authors and
 * moderators, restore, reactions, read markers and unread counts, attachments through upload
 * forms, tenant isolation, field workers' visibility, and the events (webhooks and the event
 * stream's CASE_COMMENT_ADDED:V1).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../doubles/webhook-receiver.ts';
import { type ApiResponse, baseUrl, call, eventually, problemType, tokenFor } from '../support/api.ts';
import { pngImage, postUploadForm } from '../support/upload-files.ts';
import { tokenOfUser, userIdByEmail } from '../support/users.ts';

let admin: string;
let dispatcher: string;
let technicianClient: string;
let beta: string;
let tina: string;
let tom: string;
let dana: string;
let tinaToken: string;
let tomToken: string;
let danaToken: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  [admin, dispatcher, technicianClient, beta] = await Promise.all([
    tokenFor('cases-admin'),
    tokenFor('cases-dispatcher'),
    tokenFor('cases-technician'),
    tokenFor('beta-admin'),
  ]);
  [tina, tom, dana] = await Promise.all([
    userIdByEmail(admin, 'tina.tech@cases.test'),
    userIdByEmail(admin, 'tom.tech@cases.test'),
    userIdByEmail(admin, 'dispatcher@cases.test'),
  ]);
  tinaToken = tokenOfUser(admin, tina);
  tomToken = tokenOfUser(admin, tom);
  danaToken = tokenOfUser(admin, dana);
});

afterAll(async () => {
  for (const receiver of receivers) await receiver.stop();
});

const unique = (text: string) => `${text} (${randomUUID().slice(0, 8)})`;

/** A case, assigned to Tina unless said otherwise (field workers see only their own cases). */
async function createCase(overrides: Record<string, unknown> = {}, token = admin) {
  const response = await call('POST', '/api/v2/cases', {
    token,
    body: { title: unique('Boiler service'), assignee_id: tina, ...overrides },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; assignee_id?: string };
}

const onCase = (caseId: string) => ({ target_type: 'core:case', target_id: caseId });

/** An area: a record every role of the workspace reads, so people of every role meet on it. */
async function createArea() {
  const response = await call('POST', '/api/v2/areas', {
    token: admin,
    body: { name: unique('Pankow'), color: '#3366ff' },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string };
}

const onArea = (areaId: string) => ({ target_type: 'core:area', target_id: areaId });

async function post(token: string, body: Record<string, unknown>): Promise<ApiResponse> {
  return call('POST', '/api/v2/comments', { token, body });
}

/** A new comment (201), with a body unique to the call unless given. */
async function comment(
  token: string,
  caseId: string,
  body_markdown = unique('A note'),
  extra: Record<string, unknown> = {},
) {
  const response = await post(token, { ...onCase(caseId), body_markdown, ...extra });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

const list = (token: string, caseId: string, query = '') =>
  call('GET', `/api/v2/comments?target_type=core:case&target_id=${caseId}${query}`, { token });

const pointers = (response: ApiResponse) =>
  ((response.body?.errors ?? []) as Array<{ pointer: string }>).map((error) => error.pointer);

describe('Comments: create', () => {
  it('answers 201 with the comment, its author and an absolute Location', async () => {
    const work = await createCase();

    const response = await post(tinaToken, {
      ...onCase(work.id),
      body_markdown: 'Is the **valve** replaced?',
    });

    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      target_type: 'core:case',
      target_id: work.id,
      root_comment_id: response.body.id,
      body_markdown: 'Is the **valve** replaced?',
      author: { id: tina, first_name: 'Tina', last_name: 'Technician', is_deleted: false },
      created_at: expect.stringMatching(/Z$/),
      updated_at: response.body.created_at,
      lock_version: 0,
      is_edited: false,
      is_moderated: false,
      is_deleted: false,
      is_deleted_by_moderator: false,
      is_unread: false,
      reactions: [],
      mentions: [],
      attachments: [],
    });
    expect(response.headers.get('location')).toBe(`${baseUrl()}/api/v2/comments/${response.body.id}`);
    // created_at is the instant of the (UUIDv7) id.
    expect(Date.parse(response.body.created_at)).toBe(
      Number.parseInt(response.body.id.replace(/-/g, '').slice(0, 12), 16),
    );
    const read = await call('GET', `/api/v2/comments/${response.body.id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: response.body.id, body_markdown: 'Is the **valve** replaced?' });
  });

  it('derives root_comment_id for replies at any depth, and refuses a parent of another target', async () => {
    const work = await createCase();
    const other = await createCase();
    const root = await comment(admin, work.id);

    const reply = await comment(dispatcher, work.id, unique('reply'), { parent_comment_id: root.id });
    const deeper = await comment(admin, work.id, unique('deeper'), { parent_comment_id: reply.id });
    const elsewhere = await post(admin, {
      ...onCase(other.id),
      body_markdown: 'wrong thread',
      parent_comment_id: root.id,
    });
    const unknown = await post(admin, {
      ...onCase(work.id),
      body_markdown: 'no parent',
      parent_comment_id: randomUUID(),
    });

    expect(reply).toMatchObject({ parent_comment_id: root.id, root_comment_id: root.id });
    expect(deeper).toMatchObject({ parent_comment_id: reply.id, root_comment_id: root.id });
    expect(elsewhere.status).toBe(422);
    expect(pointers(elsewhere)).toEqual(['#/parent_comment_id']);
    expect(unknown.status).toBe(422);
    expect(pointers(unknown)).toEqual(['#/parent_comment_id']);
  });

  it.each([
    { title: 'a missing body', body: {}, type: 'field-required', pointer: '#/body_markdown' },
    {
      title: 'a blank body',
      body: { body_markdown: '  \n ' },
      type: 'field-required',
      pointer: '#/body_markdown',
    },
    {
      title: 'a body of 10001 characters',
      body: { body_markdown: 'x'.repeat(10_001) },
      type: 'validation-failed',
      pointer: '#/body_markdown',
    },
    {
      title: 'raw HTML',
      body: { body_markdown: 'Hello <img src=x onerror=alert(1)>' },
      type: 'validation-failed',
      pointer: '#/body_markdown',
    },
    {
      title: 'a javascript: link',
      body: { body_markdown: '[click me](javascript:alert(document.cookie))' },
      type: 'validation-failed',
      pointer: '#/body_markdown',
    },
    {
      title: 'a data: link',
      body: { body_markdown: '[x](data:text/html,<script>alert(1)</script>)' },
      type: 'validation-failed',
      pointer: '#/body_markdown',
    },
    {
      title: 'an image',
      body: { body_markdown: '![pixel](https://tracker.test/p.gif)' },
      type: 'validation-failed',
      pointer: '#/body_markdown',
    },
    {
      title: 'a mention of no user',
      body: { body_markdown: `@[Nobody](user:${randomUUID()})` },
      type: 'validation-failed',
      pointer: '#/body_markdown',
    },
    {
      title: 'an unknown core type',
      body: { target_type: 'core:planet', body_markdown: 'x' },
      type: 'validation-failed',
      pointer: '#/target_type',
    },
    {
      title: 'an unknown custom-object type',
      body: { target_type: 'custom_object:no_such_type', body_markdown: 'x' },
      type: 'validation-failed',
      pointer: '#/target_type',
    },
    {
      title: 'a record that does not exist',
      body: { target_id: randomUUID(), body_markdown: 'x' },
      type: 'validation-failed',
      pointer: '#/target_id',
    },
    {
      title: 'a malformed target id',
      body: { target_id: 'case-42', body_markdown: 'x' },
      type: 'validation-failed',
      pointer: '#/target_id',
    },
    {
      title: 'too many attachments',
      body: { body_markdown: 'x', attachment_ids: Array.from({ length: 11 }, () => randomUUID()) },
      type: 'validation-failed',
      pointer: '#/attachment_ids',
    },
  ])('refuses $title with 422 $type at $pointer', async ({ body, type, pointer }) => {
    const work = await createCase();

    const response = await post(admin, { ...onCase(work.id), ...body });

    expect(response.status, response.text).toBe(422);
    expect(response.body.type).toEqual(problemType(type));
    expect(pointers(response)).toContain(pointer);
  });

  it('names the line and the construct of each refused piece of Markdown', async () => {
    const work = await createCase();

    const response = await post(admin, {
      ...onCase(work.id),
      body_markdown: 'fine\n\n<script>alert(1)</script>\n\n[x](vbscript:msgbox(1))',
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { data: unknown }) => e.data)).toEqual([
      { line: 3, construct: 'html' },
      { line: 5, construct: 'link' },
    ]);
  });

  it('refuses a mention of a user of another workspace', async () => {
    const work = await createCase();
    const betaOwner = await userIdByEmail(beta, 'owner@beta.test');

    const response = await post(admin, {
      ...onCase(work.id),
      body_markdown: `@[Beta](user:${betaOwner}) hello`,
    });

    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      pointer: '#/body_markdown',
      data: { user_id: betaOwner },
    });
  });

  it('resolves mentions to users with their current names, once each', async () => {
    const work = await createCase();

    const created = await comment(
      admin,
      work.id,
      `@[T](user:${tina}) and @[Tom](user:${tom.toUpperCase()}), over to you, @[Tina](user:${tina})`,
    );

    expect(created.mentions).toEqual([
      { user_id: tina, first_name: 'Tina', last_name: 'Technician', is_deleted: false },
      { user_id: tom, first_name: 'Tom', last_name: 'Technician', is_deleted: false },
    ]);
  });
});

describe('Comments: duplicate submissions', () => {
  it('gives the same author the existing comment with 200 and its Location within the window, also when the repeat is a reply', async () => {
    const work = await createCase();
    const elsewhere = await createCase();
    const body = unique('Arrived on site');
    const first = await post(tinaToken, { ...onCase(work.id), body_markdown: body });

    const again = await post(tinaToken, { ...onCase(work.id), body_markdown: body });
    const asReply = await post(tinaToken, {
      ...onCase(work.id),
      body_markdown: body,
      parent_comment_id: first.body.id,
    });
    const byOther = await post(danaToken, { ...onCase(work.id), body_markdown: body });
    const onOtherRecord = await post(tinaToken, { ...onCase(elsewhere.id), body_markdown: body });

    expect(first.status).toBe(201);
    for (const repeat of [again, asReply]) {
      expect(repeat.status, repeat.text).toBe(200);
      expect(repeat.body).toEqual(first.body);
      expect(repeat.headers.get('location')).toBe(first.headers.get('location'));
    }
    expect(byOther.status).toBe(201);
    expect(onOtherRecord.status).toBe(201);
    const { body: page } = await list(admin, work.id, '&sort=flat:asc');
    expect(page.page.total_elements).toBe(2);
  });

  it('gives a reply that repeats an earlier reply of the same author in another thread of the record that reply, with 200', async () => {
    const work = await createCase();
    const [rootA, rootB] = [
      await comment(admin, work.id, unique('A')),
      await comment(admin, work.id, unique('B')),
    ];
    const body = unique('Same answer');
    const first = await post(tinaToken, {
      ...onCase(work.id),
      body_markdown: body,
      parent_comment_id: rootA.id,
    });

    const second = await post(tinaToken, {
      ...onCase(work.id),
      body_markdown: body,
      parent_comment_id: rootB.id,
    });

    expect(first.status).toBe(201);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, parent_comment_id: rootA.id });
  });

  it('keeps the first of concurrent identical posts and answers the others with it', async () => {
    const work = await createCase();
    const body = unique('Double click');

    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(tinaToken, { ...onCase(work.id), body_markdown: body })),
    );

    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    const { body: page } = await list(admin, work.id);
    expect(page.page.total_elements).toBe(1);
  });

  it('creates a new comment once the window has passed, or when the first was deleted', async () => {
    const work = await createCase();
    const body = unique('Waiting for parts');
    const first = await comment(tinaToken, work.id, body);
    await call('DELETE', `/api/v2/comments/${first.id}`, { token: tinaToken });

    const afterDelete = await post(tinaToken, { ...onCase(work.id), body_markdown: body });
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const afterWindow = await post(tinaToken, { ...onCase(work.id), body_markdown: body });

    expect(afterDelete.status).toBe(201);
    expect(afterWindow.status).toBe(201);
    expect(new Set([first.id, afterDelete.body.id, afterWindow.body.id]).size).toBe(3);
  });
});

describe('Comments: list', () => {
  /**
   * Three roots r1, r2, r3 (in that order) with replies at several depths:
   * r1 ← a ← b ← e (deep), r1 ← c, r3 ← d; created r1, r2, a, r3, b, c, d, e.
   */
  async function thread() {
    const work = await createCase();
    const r1 = await comment(admin, work.id, 'r1');
    const r2 = await comment(admin, work.id, 'r2');
    const a = await comment(tinaToken, work.id, 'a', { parent_comment_id: r1.id });
    const r3 = await comment(admin, work.id, 'r3');
    const b = await comment(danaToken, work.id, 'b', { parent_comment_id: a.id });
    const c = await comment(admin, work.id, 'c', { parent_comment_id: r1.id });
    const d = await comment(admin, work.id, 'd', { parent_comment_id: r3.id });
    const e = await comment(tinaToken, work.id, 'e', { parent_comment_id: b.id });
    return { work, ids: { r1, r2, r3, a, b, c, d, e } };
  }

  let fixture: Awaited<ReturnType<typeof thread>>;
  beforeAll(async () => {
    fixture = await thread();
  });

  const bodies = (response: ApiResponse) =>
    response.body.items.map((item: { body_markdown: string }) => item.body_markdown);

  it('lists roots newest first, each followed by its whole thread oldest first (threaded:desc default)', async () => {
    const response = await list(admin, fixture.work.id);

    expect(response.status).toBe(200);
    expect(bodies(response)).toEqual(['r3', 'd', 'r2', 'r1', 'a', 'b', 'c', 'e']);
    expect(response.body.page).toEqual({ size: 20, total_elements: 3, total_pages: 1, number: 0 });
  });

  it('pages by root comments, a deep thread staying whole on its page', async () => {
    const pages = await Promise.all(
      [0, 1, 2].map((page) => list(admin, fixture.work.id, `&sort=threaded:desc&size=1&page=${page}`)),
    );

    expect(pages.map(bodies)).toEqual([['r3', 'd'], ['r2'], ['r1', 'a', 'b', 'c', 'e']]);
    expect(pages[0]?.body.page).toEqual({ size: 1, total_elements: 3, total_pages: 3, number: 0 });
    expect(bodies(await list(admin, fixture.work.id, '&size=1&page=3'))).toEqual([]);
  });

  it('lists roots oldest first with threaded:asc', async () => {
    const first = await list(admin, fixture.work.id, '&sort=threaded:asc&size=2');
    const second = await list(admin, fixture.work.id, '&sort=threaded:asc&size=2&page=1');

    expect(bodies(first)).toEqual(['r1', 'a', 'b', 'c', 'e', 'r2']);
    expect(bodies(second)).toEqual(['r3', 'd']);
    expect(first.body.page.total_pages).toBe(2);
  });

  it('lists every comment by creation with flat:asc and flat:desc, counting comments', async () => {
    const asc = await list(admin, fixture.work.id, '&sort=flat:asc&size=3&page=1');
    const desc = await list(admin, fixture.work.id, '&sort=flat:desc');

    expect(bodies(asc)).toEqual(['r3', 'b', 'c']);
    expect(asc.body.page).toEqual({ size: 3, total_elements: 8, total_pages: 3, number: 1 });
    expect(bodies(desc)).toEqual(['e', 'd', 'c', 'b', 'r3', 'a', 'r2', 'r1']);
  });

  it.each([
    { query: '&sort=newest', pointer: '#/query/sort' },
    { query: '&size=1001', pointer: '#/query/size' },
    { query: '&size=0', pointer: '#/query/size' },
    { query: '&page=-1', pointer: '#/query/page' },
  ])('refuses $query with 422 at $pointer', async ({ query, pointer }) => {
    const response = await list(admin, fixture.work.id, query);

    expect(response.status).toBe(422);
    expect(pointers(response)).toEqual([pointer]);
  });

  it('takes up to 1000 per page', async () => {
    expect((await list(admin, fixture.work.id, '&size=1000')).status).toBe(200);
  });

  it('needs target_type and target_id, and answers 404 for a record that is not there', async () => {
    const missing = await call('GET', '/api/v2/comments?target_type=core:case', { token: admin });
    const nowhere = await list(admin, randomUUID());
    const unknownType = await call(
      'GET',
      `/api/v2/comments?target_type=core:planet&target_id=${randomUUID()}`,
      {
        token: admin,
      },
    );

    expect(missing.status).toBe(422);
    expect(pointers(missing)).toEqual(['#/query/target_id']);
    expect(nowhere.status).toBe(404);
    expect(unknownType.status).toBe(422);
  });
});

describe('Comments: edit', () => {
  it('lets the author edit the body, which sets is_edited and moves lock_version', async () => {
    const work = await createCase();
    const created = await comment(tinaToken, work.id, 'Valve replaced');

    const edited = await call('PATCH', `/api/v2/comments/${created.id}`, {
      token: tinaToken,
      body: { body_markdown: `Valve replaced, @[Tom](user:${tom}) please check`, lock_version: 0 },
    });
    const stale = await call('PATCH', `/api/v2/comments/${created.id}`, {
      token: tinaToken,
      body: { body_markdown: 'again', lock_version: 0 },
    });

    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({
      body_markdown: `Valve replaced, @[Tom](user:${tom}) please check`,
      is_edited: true,
      lock_version: 1,
      mentions: [{ user_id: tom }],
    });
    expect(stale.status).toBe(409);
  });

  it('moves lock_version for a PATCH that changes nothing, as every write does, without marking the comment edited', async () => {
    const work = await createCase();
    const created = await comment(tinaToken, work.id, unique('Gauge checked'));
    const path = `/api/v2/comments/${created.id}`;

    const same = await call('PATCH', path, {
      token: tinaToken,
      body: { body_markdown: created.body_markdown, lock_version: 0 },
    });
    const empty = await call('PATCH', path, { token: tinaToken, body: {} });
    const stale = await call('PATCH', path, { token: tinaToken, body: { lock_version: 1 } });

    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({
      body_markdown: created.body_markdown,
      is_edited: false,
      lock_version: 1,
    });
    expect(empty.body).toMatchObject({ is_edited: false, lock_version: 2 });
    expect(stale.status).toBe(409);
    const entries = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = (log.body.items as Array<Record<string, any>>).filter(
        (entry) => entry.resource.id === created.id,
      );
      expect(found).toHaveLength(3);
      return found;
    });
    expect(entries.map((entry) => [entry.event_type, entry.data.previous_attributes])).toEqual([
      ['comment.updated', {}],
      ['comment.updated', {}],
      ['comment.created', undefined],
    ]);
  });

  it.each([
    { title: 'an admin', token: () => admin },
    { title: 'a dispatcher (moderator)', token: () => dispatcher },
    { title: 'another technician', token: () => tomToken },
  ])('refuses $title with 403 comments/cannot-edit-others, reason not_author', async ({ token }) => {
    const area = await createArea();
    const byTina = await post(tinaToken, { ...onArea(area.id), body_markdown: 'Gate code is 4711' });
    expect(byTina.status).toBe(201);

    const response = await call('PATCH', `/api/v2/comments/${byTina.body.id}`, {
      token: token(),
      body: { body_markdown: 'rewritten' },
    });

    expect(response.status).toBe(403);
    expect(response.body.type).toEqual(problemType('comments/cannot-edit-others'));
    expect(response.body.data).toEqual({ reason: 'not_author' });
  });

  it('refuses raw HTML in an edit like on creation, and leaves the body as it was', async () => {
    const work = await createCase();
    const created = await comment(admin, work.id, 'plain');

    const response = await call('PATCH', `/api/v2/comments/${created.id}`, {
      token: admin,
      body: { body_markdown: '<iframe src="https://evil.test"></iframe>' },
    });

    expect(response.status).toBe(422);
    expect(pointers(response)).toEqual(['#/body_markdown']);
    expect((await call('GET', `/api/v2/comments/${created.id}`, { token: admin })).body.body_markdown).toBe(
      'plain',
    );
  });

  it('describes its problem type at the type URI', async () => {
    const response = await call('GET', '/problems/comments/cannot-edit-others');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 403,
      type: expect.stringMatching(/comments\/cannot-edit-others$/),
    });
  });
});

describe('Comments: delete and restore', () => {
  it('turns the author’s own comment into a tombstone that keeps its thread, without its body', async () => {
    const work = await createCase();
    const root = await comment(tinaToken, work.id, 'root');
    await comment(admin, work.id, 'a reply', { parent_comment_id: root.id });

    const deleted = await call('DELETE', `/api/v2/comments/${root.id}`, { token: tinaToken });
    const again = await call('DELETE', `/api/v2/comments/${root.id}`, { token: tinaToken });
    const read = await call('GET', `/api/v2/comments/${root.id}`, { token: admin });
    const page = await list(admin, work.id);

    expect(deleted.status).toBe(204);
    expect(again.status).toBe(204);
    expect(read.body).toMatchObject({
      is_deleted: true,
      is_deleted_by_moderator: false,
      is_moderated: false,
      reactions: [],
      mentions: [],
      attachments: [],
    });
    expect(read.body).not.toHaveProperty('body_markdown');
    expect(page.body.items.map((item: { is_deleted: boolean }) => item.is_deleted)).toEqual([true, false]);
    expect(page.body.items[1].body_markdown).toBe('a reply');
  });

  it('lets a moderator delete anyone’s comment (is_deleted_by_moderator), and nobody else', async () => {
    const area = await createArea();
    const byTina = (await post(tinaToken, { ...onArea(area.id), body_markdown: unique('by Tina') })).body;
    const byDana = (await post(danaToken, { ...onArea(area.id), body_markdown: unique('by Dana') })).body;

    const byTom = await call('DELETE', `/api/v2/comments/${byTina.id}`, { token: tomToken });
    const byModerator = await call('DELETE', `/api/v2/comments/${byTina.id}`, { token: danaToken });
    const byAdmin = await call('DELETE', `/api/v2/comments/${byDana.id}`, { token: admin });

    expect(byTom.status).toBe(403);
    expect(byTom.body.type).toEqual(problemType('comments/cannot-edit-others'));
    expect(byTom.body.data).toEqual({ reason: 'not_author', required_grants: ['comments:update'] });
    expect(byModerator.status).toBe(204);
    expect(byAdmin.status).toBe(204);
    const read = await call('GET', `/api/v2/comments/${byTina.id}`, { token: tinaToken });
    expect(read.body).toMatchObject({ is_deleted: true, is_deleted_by_moderator: true, is_moderated: true });
  });

  it('restores a tombstone for holders of comments:update, and refuses a live comment with 422', async () => {
    const work = await createCase();
    const created = await comment(tinaToken, work.id, 'restore me');
    await call('DELETE', `/api/v2/comments/${created.id}`, { token: tinaToken });

    const byAuthor = await call('POST', `/api/v2/comments/${created.id}/restore`, { token: tinaToken });
    const restored = await call('POST', `/api/v2/comments/${created.id}/restore`, { token: danaToken });
    const live = await call('POST', `/api/v2/comments/${created.id}/restore`, { token: danaToken });

    expect(byAuthor.status).toBe(403);
    expect(byAuthor.body.data).toMatchObject({
      reason: 'missing_grant',
      required_grants: ['comments:update'],
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({
      body_markdown: 'restore me',
      is_deleted: false,
      is_deleted_by_moderator: false,
      is_moderated: true,
      lock_version: 2,
    });
    expect(live.status).toBe(422);
    expect(live.body.type).toEqual(problemType('comments.cannot-restore-not-deleted'));
  });

  it('refuses to edit a tombstone', async () => {
    const work = await createCase();
    const created = await comment(admin, work.id);
    await call('DELETE', `/api/v2/comments/${created.id}`, { token: admin });

    const response = await call('PATCH', `/api/v2/comments/${created.id}`, {
      token: admin,
      body: { body_markdown: 'edited after deletion' },
    });

    expect(response.status).toBe(422);
  });
});

describe('Comments: reactions', () => {
  it('adds with 201, answers a repeat with 200, and counts per emoji with has_reacted', async () => {
    const work = await createCase();
    const created = await comment(admin, work.id);
    const path = `/api/v2/comments/${created.id}/reactions`;

    const first = await call('POST', path, { token: tinaToken, body: { emoji: '👍' } });
    const repeat = await call('POST', path, { token: tinaToken, body: { emoji: '👍' } });
    const byDana = await call('POST', path, { token: danaToken, body: { emoji: '👍' } });
    await call('POST', path, { token: danaToken, body: { emoji: '❤️' } });
    const asTina = await call('GET', `/api/v2/comments/${created.id}`, { token: tinaToken });

    expect(first.status).toBe(201);
    expect(first.body.reactions).toEqual([{ emoji: '👍', count: 1, has_reacted: true }]);
    expect(repeat.status).toBe(200);
    expect(repeat.body.reactions).toEqual([{ emoji: '👍', count: 1, has_reacted: true }]);
    expect(byDana.status).toBe(201);
    expect(asTina.body.reactions).toEqual([
      { emoji: '👍', count: 2, has_reacted: true },
      { emoji: '❤️', count: 1, has_reacted: false },
    ]);
  });

  it('removes with 204, also a reaction that was not there', async () => {
    const work = await createCase();
    const created = await comment(admin, work.id);
    await call('POST', `/api/v2/comments/${created.id}/reactions`, {
      token: tinaToken,
      body: { emoji: '🎉' },
    });
    const path = `/api/v2/comments/${created.id}/reactions/${encodeURIComponent('🎉')}`;

    const removed = await call('DELETE', path, { token: tinaToken });
    const again = await call('DELETE', path, { token: tinaToken });
    const unknown = await call(
      'DELETE',
      `/api/v2/comments/${created.id}/reactions/${encodeURIComponent('🤡')}`,
      {
        token: tinaToken,
      },
    );

    expect(removed.status).toBe(204);
    expect(again.status).toBe(204);
    expect(unknown.status).toBe(404);
    expect(
      (await call('GET', `/api/v2/comments/${created.id}`, { token: tinaToken })).body.reactions,
    ).toEqual([]);
  });

  it('takes the eight emoji of the spec only', async () => {
    const work = await createCase();
    const created = await comment(admin, work.id);

    const clown = await call('POST', `/api/v2/comments/${created.id}/reactions`, {
      token: admin,
      body: { emoji: '🤡' },
    });
    const all = await Promise.all(
      ['👍', '❤️', '😂', '🎉', '😮', '😢', '👀', '🙌'].map((emoji) =>
        call('POST', `/api/v2/comments/${created.id}/reactions`, { token: admin, body: { emoji } }),
      ),
    );

    expect(clown.status).toBe(422);
    expect(pointers(clown)).toEqual(['#/emoji']);
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(201));
    const read = await call('GET', `/api/v2/comments/${created.id}`, { token: admin });
    expect(read.body.reactions.map((r: { emoji: string }) => r.emoji)).toEqual([
      '👍',
      '❤️',
      '😂',
      '🎉',
      '😮',
      '😢',
      '👀',
      '🙌',
    ]);
  });

  it('refuses reactions on a tombstone with 422 comments.reaction-on-deleted-comment', async () => {
    const work = await createCase();
    const created = await comment(admin, work.id);
    await call('POST', `/api/v2/comments/${created.id}/reactions`, { token: admin, body: { emoji: '👀' } });
    await call('DELETE', `/api/v2/comments/${created.id}`, { token: admin });

    const add = await call('POST', `/api/v2/comments/${created.id}/reactions`, {
      token: admin,
      body: { emoji: '👍' },
    });
    const remove = await call(
      'DELETE',
      `/api/v2/comments/${created.id}/reactions/${encodeURIComponent('👀')}`,
      {
        token: admin,
      },
    );

    expect(add.status).toBe(422);
    expect(add.body.type).toEqual(problemType('comments.reaction-on-deleted-comment'));
    expect(remove.status).toBe(422);
  });
});

describe('Comments: unread counts and read markers', () => {
  it('counts comments by others after the caller’s marker, in lists and per target', async () => {
    const mine = await createCase();
    const other = await createCase();
    const own = await comment(danaToken, mine.id);
    const first = await comment(tinaToken, mine.id);
    await comment(admin, mine.id);
    await comment(tinaToken, other.id);

    const before = await list(danaToken, mine.id, '&sort=flat:asc');
    const counts = await call(
      'GET',
      `/api/v2/comments/counts?target_type=core:case&target_ids=${mine.id}&target_ids=${other.id}&target_ids=${randomUUID()}`,
      { token: danaToken },
    );
    const marked = await call('POST', '/api/v2/comments/read-markers', {
      token: danaToken,
      body: onCase(mine.id),
    });
    const after = await list(danaToken, mine.id, '&sort=flat:asc');
    await comment(tinaToken, mine.id, unique('one more'), {
      parent_comment_id: first.id,
    });
    const later = await list(danaToken, mine.id, '&sort=flat:asc');
    const forTina = await list(tinaToken, mine.id);

    expect(before.body.unread_count).toBe(2);
    expect(before.body.items.map((item: { is_unread: boolean }) => item.is_unread)).toEqual([
      false,
      true,
      true,
    ]);
    expect(before.body.items[0].id).toBe(own.id);
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({
      items: [
        { target_id: mine.id, total: 3, unread: 2 },
        { target_id: other.id, total: 1, unread: 1 },
      ],
    });
    expect(marked.status).toBe(204);
    expect(after.body.unread_count).toBe(0);
    expect(after.body.items.every((item: { is_unread: boolean }) => !item.is_unread)).toBe(true);
    expect(later.body.unread_count).toBe(1);
    expect(later.body.items.at(-1).is_unread).toBe(true);
    // Tina never marked it read: everything but her own is unread for her.
    expect(forTina.body.unread_count).toBe(2);
  });

  it('leaves tombstones out of totals and unread counts', async () => {
    const work = await createCase();
    const gone = await comment(tinaToken, work.id);
    await comment(tinaToken, work.id);
    await call('DELETE', `/api/v2/comments/${gone.id}`, { token: tinaToken });

    const counts = await call('GET', `/api/v2/comments/counts?target_type=core:case&target_ids=${work.id}`, {
      token: danaToken,
    });
    const page = await list(danaToken, work.id);

    expect(counts.body.items).toEqual([{ target_id: work.id, total: 1, unread: 1 }]);
    expect(page.body.unread_count).toBe(1);
    expect(page.body.page.total_elements).toBe(2);
  });

  it('refuses a read marker on a record that is not there, and a counts request without ids', async () => {
    const marker = await call('POST', '/api/v2/comments/read-markers', {
      token: admin,
      body: onCase(randomUUID()),
    });
    const counts = await call('GET', '/api/v2/comments/counts?target_type=core:case', { token: admin });
    const commas = await call(
      'GET',
      `/api/v2/comments/counts?target_type=core:case&target_ids=${randomUUID()},${randomUUID()}`,
      { token: admin },
    );

    expect(marker.status).toBe(422);
    expect(pointers(marker)).toEqual(['#/target_id']);
    expect(counts.status).toBe(422);
    expect(commas.status).toBe(422);
  });
});

describe('Comments: mention suggestions', () => {
  it('suggests active users matching the search, with the Markdown to insert', async () => {
    const response = await call(
      'GET',
      '/api/v2/comments/mention-suggestions?search=tin&target_type=core:case',
      {
        token: tomToken,
      },
    );

    expect(response.status).toBe(200);
    expect(response.body.items).toContainEqual({
      user_id: tina,
      first_name: 'Tina',
      last_name: 'Technician',
      mention_markdown: `@[Tina Technician](user:${tina})`,
    });
    expect(response.body).not.toHaveProperty('page');
    expect(JSON.stringify(response.body)).not.toContain('@cases.test');
  });

  it('bounds the answer by limit (1..50)', async () => {
    const two = await call('GET', '/api/v2/comments/mention-suggestions?limit=2', { token: admin });
    const zero = await call('GET', '/api/v2/comments/mention-suggestions?limit=0', { token: admin });
    const many = await call('GET', '/api/v2/comments/mention-suggestions?limit=51', { token: admin });

    expect(two.status).toBe(200);
    expect(two.body.items).toHaveLength(2);
    expect(zero.status).toBe(422);
    expect(many.status).toBe(422);
  });
});

describe('Comments: targets and who sees them', () => {
  it.each([
    { type: 'core:area', path: '/api/v2/areas', body: { name: 'Mitte', color: '#123456' } },
    { type: 'core:vehicle', path: '/api/v2/vehicles', body: { name: unique('Van') } },
    { type: 'core:device', path: '/api/v2/devices', body: {} },
    { type: 'core:tour', path: '/api/v2/tours', body: { date: '2026-06-11' } },
  ])('takes comments on a $type', async ({ type, path, body }) => {
    const record = await call('POST', path, { token: admin, body });
    expect(record.status, record.text).toBe(201);

    const created = await post(admin, {
      target_type: type,
      target_id: record.body.id,
      body_markdown: 'noted',
    });
    const page = await call('GET', `/api/v2/comments?target_type=${type}&target_id=${record.body.id}`, {
      token: admin,
    });

    expect(created.status, created.text).toBe(201);
    expect(page.body.items.map((item: { id: string }) => item.id)).toEqual([created.body.id]);
  });

  it('lets a user comment on their own user record, and needs users:read for others', async () => {
    const own = await post(tinaToken, {
      target_type: 'core:user',
      target_id: tina,
      body_markdown: 'my notes',
    });
    const other = await post(tinaToken, {
      target_type: 'core:user',
      target_id: tom,
      body_markdown: 'about Tom',
    });
    const byAdmin = await post(admin, {
      target_type: 'core:user',
      target_id: tom,
      body_markdown: 'about Tom',
    });

    expect(own.status).toBe(201);
    expect(other.status).toBe(422);
    expect(pointers(other)).toEqual(['#/target_id']);
    expect(byAdmin.status).toBe(201);
  });

  it('shows field workers only the comments of their own cases', async () => {
    const toms = await createCase({ assignee_id: tom });
    const tinas = await createCase();
    const onToms = await comment(admin, toms.id);

    const write = await post(tinaToken, { ...onCase(toms.id), body_markdown: 'not mine' });
    const read = await call('GET', `/api/v2/comments/${onToms.id}`, { token: tinaToken });
    const page = await list(tinaToken, toms.id);
    const react = await call('POST', `/api/v2/comments/${onToms.id}/reactions`, {
      token: tinaToken,
      body: { emoji: '👍' },
    });
    const counts = await call(
      'GET',
      `/api/v2/comments/counts?target_type=core:case&target_ids=${toms.id}&target_ids=${tinas.id}`,
      {
        token: tinaToken,
      },
    );
    const own = await post(tinaToken, { ...onCase(tinas.id), body_markdown: 'mine' });
    const byClient = await post(technicianClient, { ...onCase(toms.id), body_markdown: 'client' });

    expect(write.status).toBe(422);
    expect(pointers(write)).toEqual(['#/target_id']);
    expect(read.status).toBe(404);
    expect(page.status).toBe(404);
    expect(react.status).toBe(404);
    expect(counts.body.items.map((item: { target_id: string }) => item.target_id)).toEqual([tinas.id]);
    expect(own.status).toBe(201);
    expect(byClient.status).toBe(422);
  });

  it('reads custom-object targets through their access rules and the permission matrix', async () => {
    const define = async (accessClass: string) => {
      const slug = `site_${randomUUID().slice(0, 8)}`;
      const created = await call('POST', '/api/v2/custom-objects/definitions', {
        token: admin,
        body: {
          slug,
          title: 'Site',
          access_class: accessClass,
          type: 'object',
          properties: { name: { type: 'string' } },
        },
      });
      expect(created.status, created.text).toBe(201);
      const instance = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
        token: admin,
        body: { data: { name: 'Plant 7' } },
      });
      expect(instance.status, instance.text).toBe(201);
      return { type: `custom_object:${slug}`, id: instance.body.data.id as string };
    };
    const standard = await define('STANDARD');
    const guarded = await define('PROTECTED');

    const onStandard = await post(tinaToken, {
      target_type: standard.type,
      target_id: standard.id,
      body_markdown: 'ok',
    });
    const onGuarded = await post(tinaToken, {
      target_type: guarded.type,
      target_id: guarded.id,
      body_markdown: 'no',
    });
    const byAdmin = await post(admin, {
      target_type: guarded.type,
      target_id: guarded.id,
      body_markdown: 'yes',
    });
    const hidden = await call('GET', `/api/v2/comments/${byAdmin.body.id}`, { token: tinaToken });
    await call('PUT', `/api/v2/custom-objects/definitions/${guarded.type.split(':')[1]}/permissions`, {
      token: admin,
      body: { entries: [{ principal_type: 'role', role_name: 'technician', level: 'read' }] },
    });
    const granted = await call('GET', `/api/v2/comments/${byAdmin.body.id}`, { token: tinaToken });

    expect(onStandard.status, onStandard.text).toBe(201);
    expect(onGuarded.status).toBe(422);
    expect(pointers(onGuarded)).toEqual(['#/target_id']);
    expect(byAdmin.status).toBe(201);
    expect(hidden.status).toBe(404);
    expect(granted.status).toBe(200);
  });

  it('keeps every workspace’s comments to itself', async () => {
    const work = await createCase();
    const created = await comment(admin, work.id);

    const read = await call('GET', `/api/v2/comments/${created.id}`, { token: beta });
    const patch = await call('PATCH', `/api/v2/comments/${created.id}`, {
      token: beta,
      body: { body_markdown: 'x' },
    });
    const remove = await call('DELETE', `/api/v2/comments/${created.id}`, { token: beta });
    const react = await call('POST', `/api/v2/comments/${created.id}/reactions`, {
      token: beta,
      body: { emoji: '👍' },
    });
    const page = await list(beta, work.id);
    const write = await post(beta, { ...onCase(work.id), body_markdown: 'hi' });
    const reply = await call('POST', '/api/v2/comments', {
      token: beta,
      body: { ...onCase(work.id), body_markdown: 'hi', parent_comment_id: created.id },
    });
    const counts = await call('GET', `/api/v2/comments/counts?target_type=core:case&target_ids=${work.id}`, {
      token: beta,
    });

    expect([read.status, patch.status, remove.status, react.status, page.status]).toEqual([
      404, 404, 404, 404, 404,
    ]);
    expect(write.status).toBe(422);
    expect(reply.status).toBe(422);
    expect(counts.body).toEqual({ items: [] });
    expect((await call('GET', `/api/v2/comments/${created.id}`, { token: admin })).body.body_markdown).toBe(
      created.body_markdown,
    );
  });
});

describe('Comments: attachments', () => {
  async function upload(token: string, file: { bytes: Buffer; name: string; type: string }) {
    const intent = await call('POST', '/api/v2/comments/attachments', {
      token,
      body: { original_file_name: file.name, mime_type: file.type },
    });
    expect(intent.status, intent.text).toBe(201);
    const posted = await postUploadForm(intent.body.upload_fields, file);
    expect(posted.status).toBeLessThan(300);
    return intent.body.file_id as string;
  }

  it('leaves an audit entry for an upload intent, with its file_id and never its form', async () => {
    const intent = await call('POST', '/api/v2/comments/attachments', {
      token: tinaToken,
      body: { original_file_name: 'meter.png', mime_type: 'image/png' },
    });
    expect(intent.status, intent.text).toBe(201);
    const fileId = intent.body.file_id as string;

    const [entry] = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = (log.body.items as Array<Record<string, any>>).filter(
        (item) => item.resource.id === fileId,
      );
      expect(found).toHaveLength(1);
      return found;
    });
    const readBack = await call('GET', `/api/v2/comments/attachments/${fileId}`, { token: tinaToken });

    expect(readBack.status).toBe(200);
    expect(entry).toMatchObject({
      event_type: 'comment_attachment.created',
      resource: { type: 'comment_attachment', id: fileId },
      actor: { type: 'USER', id: tina },
      data: {
        object: {
          file_id: fileId,
          original_file_name: 'meter.png',
          mime_type: 'image/png',
          status: 'PENDING',
          expires_at_utc: intent.body.expires_at_utc,
        },
      },
    });
    expect(entry?.data.object).not.toHaveProperty('upload_fields');
    expect(JSON.stringify(entry)).not.toContain(intent.body.upload_fields.Policy ?? 'no policy');
  });

  it('attaches an uploaded file once, readable through a short-lived URL', async () => {
    const work = await createCase();
    const photo = pngImage(4, 4);
    const fileId = await upload(admin, { bytes: photo, name: 'valve.png', type: 'image/png' });

    const created = await comment(admin, work.id, 'photo attached', { attachment_ids: [fileId] });
    const reused = await post(admin, {
      ...onCase(work.id),
      body_markdown: 'again',
      attachment_ids: [fileId],
    });

    expect(created.attachments).toEqual([
      {
        file_id: fileId,
        file_name: 'valve.png',
        mime_type: 'image/png',
        size_bytes: photo.length,
        url: expect.stringMatching(/^https?:\/\//),
        url_expires_at: expect.stringMatching(/Z$/),
      },
    ]);
    const fetched = await fetch(created.attachments[0].url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(photo)).toBe(true);
    expect(reused.status).toBe(422);
    expect(pointers(reused)).toEqual(['#/attachment_ids/0']);
  });

  it('answers an upload’s status at its Location: pending, uploaded, attached, and only to its uploader', async () => {
    const work = await createCase();
    const photo = pngImage(2, 2);
    const intent = await call('POST', '/api/v2/comments/attachments', {
      token: tinaToken,
      body: { original_file_name: 'dial.png', mime_type: 'image/png' },
    });
    expect(intent.status, intent.text).toBe(201);
    const location = intent.headers.get('location') ?? '';
    expect(location).toBe(`${baseUrl()}/api/v2/comments/attachments/${intent.body.file_id}`);
    const path = new URL(location).pathname;
    const status = async (token: string) => call('GET', path, { token });

    const pending = await status(tinaToken);
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body).toMatchObject({
      file_id: intent.body.file_id,
      original_file_name: 'dial.png',
      mime_type: 'image/png',
      status: 'PENDING',
      expires_at_utc: intent.body.expires_at_utc,
    });
    expect(
      (await postUploadForm(intent.body.upload_fields, { bytes: photo, name: 'dial.png', type: 'image/png' }))
        .status,
    ).toBeLessThan(300);
    expect((await status(tinaToken)).body).toMatchObject({ status: 'UPLOADED', size_bytes: photo.length });
    expect((await status(admin)).status).toBe(404);

    const attached = await comment(tinaToken, work.id, 'the dial', { attachment_ids: [intent.body.file_id] });
    expect((await status(tinaToken)).body).toMatchObject({ status: 'ATTACHED', comment_id: attached.id });
  });

  it('refuses a file not uploaded yet, another person’s upload and bytes that lie about their type', async () => {
    const work = await createCase();
    const pending = await call('POST', '/api/v2/comments/attachments', {
      token: admin,
      body: { original_file_name: 'later.pdf', mime_type: 'application/pdf' },
    });
    const foreign = await upload(danaToken, { bytes: pngImage(), name: 'dana.png', type: 'image/png' });
    const liar = await upload(admin, {
      bytes: Buffer.from('<html>x</html>'),
      name: 'x.png',
      type: 'image/png',
    });

    const response = await post(admin, {
      ...onCase(work.id),
      body_markdown: 'three files',
      attachment_ids: [pending.body.file_id, foreign, liar],
    });

    expect(response.status).toBe(422);
    expect(pointers(response)).toEqual(['#/attachment_ids/0', '#/attachment_ids/1', '#/attachment_ids/2']);
  });

  it('refuses an upload intent of an unsupported type', async () => {
    const response = await call('POST', '/api/v2/comments/attachments', {
      token: admin,
      body: { original_file_name: 'page.html', mime_type: 'text/html' },
    });

    expect(response.status).toBe(422);
    expect(pointers(response)).toEqual(['#/mime_type']);
  });
});

describe('Comments: events', () => {
  it('lists the comment events in the webhook catalog, without a comment.deleted no comment ever emits', async () => {
    const response = await call('GET', '/api/v2/webhooks/event-types', { token: admin });
    const types = response.body.items.map((item: { type: string }) => item.type);

    expect(types).toEqual(expect.arrayContaining(['comment.created', 'comment.updated', 'comment.reaction']));
    expect(types).not.toContain('comment.deleted');
    expect(types).not.toContain('case.comment_added');
  });

  it('delivers comment.created, comment.reaction, and comment.updated for an edit, a delete and a restore; duplicates emit nothing', async () => {
    const target = await startReceiver();
    receivers.push(target);
    const endpoint = await call('POST', '/api/v2/webhook-endpoints', {
      token: admin,
      body: {
        display_name: unique('Comments'),
        endpoint_url: `${target.url}/hook`,
        subscriptions: ['comment.*'],
      },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const work = await createCase();
    const created = await comment(tinaToken, work.id, unique('hello'));
    const path = `/api/v2/comments/${created.id}/reactions`;
    await call('POST', path, { token: danaToken, body: { emoji: '🙌' } });
    await call('POST', path, { token: danaToken, body: { emoji: '🙌' } });
    await call('PATCH', `/api/v2/comments/${created.id}`, {
      token: tinaToken,
      body: { body_markdown: 'edited' },
    });
    await call('DELETE', `/api/v2/comments/${created.id}`, { token: tinaToken });
    await call('POST', `/api/v2/comments/${created.id}/restore`, { token: danaToken });

    const ofComment = (r: { json?: any }) =>
      r.json?.data?.object?.id === created.id || r.json?.data?.object?.comment_id === created.id;
    const deliveries = await target.waitFor(5, ofComment);
    const types = deliveries.map((d) => d.json.type).sort();

    expect(types).toEqual([
      'comment.created',
      'comment.reaction',
      'comment.updated',
      'comment.updated',
      'comment.updated',
    ]);
    const reaction = deliveries.find((d) => d.json.type === 'comment.reaction')?.json;
    expect(reaction.data.object).toEqual({
      comment_id: created.id,
      target_type: 'core:case',
      target_id: work.id,
      emoji: '🙌',
      user_id: dana,
      action: 'added',
      count: 1,
    });
    const [edited, deleted, restored] = deliveries
      .filter((d) => d.json.type === 'comment.updated')
      .map((d) => d.json)
      .sort((x, y) => x.data.object.lock_version - y.data.object.lock_version);
    expect(edited.data.previous_attributes).toMatchObject({
      body_markdown: created.body_markdown,
      is_edited: false,
    });
    // The soft delete: the tombstone, and never the withheld body (not even as a previous value).
    expect(deleted.data.object).toMatchObject({ id: created.id, is_deleted: true });
    expect(deleted.data.object).not.toHaveProperty('body_markdown');
    expect(deleted.data.previous_attributes).toEqual({ is_deleted: false });
    expect(restored.data.object).toMatchObject({
      id: created.id,
      is_deleted: false,
      body_markdown: 'edited',
    });
    expect(restored.data.previous_attributes).toMatchObject({ is_deleted: true });
    // The repeated reaction emitted nothing: still one comment.reaction a moment later.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(target.received.filter((r) => ofComment(r) && r.json.type === 'comment.reaction')).toHaveLength(1);
  });

  /** The stream's messages replayed after `lastEventId`, until the server closes the connection. */
  async function replayedAfter(token: string, lastEventId: string) {
    const response = await fetch(`${baseUrl()}/api/v2/events/stream?lastEventId=${lastEventId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await response.text();
    return text
      .split('\n\n')
      .map((block) => {
        const kind = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        return kind && data ? { kind, data: JSON.parse(data) } : undefined;
      })
      .filter((message) => message !== undefined);
  }

  it('streams CASE_COMMENT_ADDED:V1 for comments on cases, to field workers only for their own cases', async () => {
    const tinas = await createCase({ assignee_id: tina });
    const start = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const entry = log.body.items.find(
        (item: { event_type: string; resource: { id: string } }) =>
          item.event_type === 'case.created' && item.resource.id === tinas.id,
      );
      if (!entry) throw new Error('no audit entry yet');
      return entry.id as string;
    });
    const onTinas = await comment(danaToken, tinas.id, unique('See the **note**'));
    const toms = await createCase({ assignee_id: tom });
    const onToms = await comment(danaToken, toms.id, unique('For Tom'));

    const forDispatcher = await eventually(async () => {
      const messages = await replayedAfter(dispatcher, start);
      const found = messages.filter((m) => m.kind === 'CASE_COMMENT_ADDED:V1');
      if (found.length < 2) throw new Error('not replayed yet');
      return found;
    });
    const forTom = await eventually(async () => {
      const messages = await replayedAfter(tomToken, start);
      const found = messages.filter((m) => m.kind === 'CASE_COMMENT_ADDED:V1');
      if (found.length < 1) throw new Error('not replayed yet');
      return found;
    });

    expect(forDispatcher.map((m) => m.data.commentId)).toEqual([onTinas.id, onToms.id]);
    expect(forDispatcher[0]?.data).toMatchObject({
      kind: 'CASE_COMMENT_ADDED:V1',
      businessId: `case:${tinas.id}`,
      caseId: tinas.id,
      caseData: { id: tinas.id, assignee_id: tina },
      commentId: onTinas.id,
      commentData: { id: onTinas.id, body_markdown: onTinas.body_markdown, target_id: tinas.id },
    });
    expect(forTom.map((m) => m.data.commentId)).toEqual([onToms.id]);
  });
});
