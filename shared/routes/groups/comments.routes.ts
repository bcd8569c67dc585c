/**
 * Routes of the `comments` operation group (one Lambda): threads of comments on any record of
 * the workspace, their reactions, mentions, read markers, attachments, and the descriptions of
 * the comment problem types (their slugs hold a `/`, so they resolve under /problems/comments/).
 * Everyone who works in the workspace reads comments (comments:read) and writes their own
 * (comments:create); moderators (comments:update: owners, admins, dispatchers) delete anyone's
 * and restore deleted ones.
 */
import * as z from 'zod';
import {
  AddReactionSchema,
  AttachmentFileParams,
  AttachmentUploadSchema,
  AttachmentUploadStatusSchema,
  attachmentMaxSizeText,
  attachmentTypes,
  CommentCountListQuery,
  CommentCountListSchema,
  CommentIdParams,
  CommentListQuery,
  CommentListSchema,
  CommentSchema,
  CreateAttachmentUploadSchema,
  CreateCommentSchema,
  commentLimits,
  emojiList,
  MentionSuggestionListSchema,
  MentionSuggestionQuery,
  ReactionParams,
  ReadMarkerSchema,
  UpdateCommentSchema,
} from '../../domain/comments/comment.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const about =
  'Comments are threads on a record of the workspace, named by `target_type` and `target_id`: `core:case`, ' +
  '`core:tour`, `core:vehicle`, `core:device`, `core:area`, `core:user` or `custom_object:<definition_slug>`. The ' +
  'record must exist and the caller must be able to read it (field workers: only their own cases and tours; ' +
  'users need users:read except one’s own user; custom objects through their access rules and, for PROTECTED ' +
  'types, the permission matrix). Comments on a record the caller cannot read do not exist for them (404).';

const bodyRules =
  '`body_markdown` is restricted Markdown (CommonMark with GitHub tables and strikethrough), 1..10000 characters, ' +
  'stored exactly as sent: paragraphs, headings, emphasis, strikethrough, code, block quotes, lists, tables, ' +
  'rules and links (http, https, mailto or relative) are allowed. Raw HTML, images and links of any other ' +
  'scheme (javascript:, data:, vbscript:, …) are refused with 422 at `#/body_markdown`, one `errors[]` entry ' +
  'each naming its line (`data.line`, `data.construct`: html, image, link, mention), rather than silently ' +
  'rewritten: write `\\<` or a code span for a literal `<`, attach files instead of images. Mentions are ' +
  'links to `user:<user_id>`, written `@[First Last](user:<user_id>)` (GET /api/v2/comments/mention-suggestions ' +
  'gives the text to insert); every mentioned id must be a user of the workspace (422 otherwise) and lands in ' +
  '`mentions` with the user’s current name.';

// Examples: a dispatcher's question on a boiler case, with a technician's answer.
const caseId = '019d2f4a-5b7c-7d20-8e1f-3a9b6c4d2e51';
const commentId = '019e5a3c-7f10-7c2e-9a41-3d2b8c6e1f05';
const replyId = '019e5a41-2c33-7b10-8d22-6f4e2a9b0c17';
const dora = '019d2f40-1111-7000-8000-00000000d07a';
const tina = '019d2f40-2222-7000-8000-0000000007e1';
const fileId = '019e5a3b-1d20-7f3a-b6c2-4e8f1a0b2c3d';
const comment = {
  id: commentId,
  target_type: 'core:case',
  target_id: caseId,
  root_comment_id: commentId,
  body_markdown:
    '@[Tina Tech](user:019d2f40-2222-7000-8000-0000000007e1) is the **pressure valve** replaced?',
  author: { id: dora, first_name: 'Dora', last_name: 'Dispatcher', is_deleted: false },
  created_at: '2026-06-11T07:40:00.016Z',
  updated_at: '2026-06-11T07:40:00.016Z',
  lock_version: 0,
  is_edited: false,
  is_moderated: false,
  is_deleted: false,
  is_deleted_by_moderator: false,
  is_unread: true,
  reactions: [{ emoji: '👀', count: 1, has_reacted: false }],
  mentions: [{ user_id: tina, first_name: 'Tina', last_name: 'Tech', is_deleted: false }],
  attachments: [],
} as const;
const reply = {
  ...comment,
  id: replyId,
  parent_comment_id: commentId,
  body_markdown: 'Yes, and the photo is attached.',
  author: { id: tina, first_name: 'Tina', last_name: 'Tech', is_deleted: false },
  created_at: '2026-06-11T08:02:41.203Z',
  updated_at: '2026-06-11T08:02:41.203Z',
  is_unread: false,
  reactions: [],
  mentions: [],
  attachments: [
    {
      file_id: fileId,
      file_name: 'valve.jpg',
      mime_type: 'image/jpeg',
      size_bytes: 183204,
      url: `https://fsm-prod-uploads.s3.eu-central-1.amazonaws.com/tenants/019d2f40-0000-7000-8000-00000000a1b2/comment-attachments/${fileId}?X-Amz-Signature=3b1f`,
      url_expires_at: '2026-06-11T09:02:41Z',
    },
  ],
} as const;

const common = { group: 'comments', tags: ['Comments'], auth: 'bearer' } as const;

export const commentRoutes = [
  {
    ...common,
    grants: ['comments:read'],
    operationId: 'comments.list',
    method: 'GET',
    path: '/api/v2/comments',
    summary: 'List the comments on a record',
    description:
      `${about}\n\n` +
      '`target_type` and `target_id` are required; a record that is missing or not readable is 404, an unknown ' +
      `target type 422. \`size\` 1..${commentLimits.pageSize} (default 20). Orders (\`sort\`): \`threaded:desc\` ` +
      '(default) lists root comments newest first, each followed by every reply of its thread, at any depth, ' +
      'oldest first; `threaded:asc` the roots oldest first; in both, `page` and `size` count root comments and ' +
      '`page.total_elements` is the number of roots. `flat:desc` and `flat:asc` list every comment by creation; ' +
      'there `page` counts comments. Deleted comments stay in place as tombstones (no body, reactions, mentions ' +
      'or attachments), so threads keep their shape, and count in the totals. `unread_count` is the number of ' +
      "comments on the record by others created after the caller's read marker (POST " +
      '/api/v2/comments/read-markers); `is_unread` marks them on the page. A page costs its page: root entries ' +
      'up to the page, then its threads as one key range.',
    examples: {
      query: `target_type=core:case&target_id=${caseId}&sort=threaded:desc&size=20`,
      response: {
        items: [comment, reply],
        unread_count: 1,
        page: { size: 20, total_elements: 1, total_pages: 1, number: 0 },
      },
    },
    query: CommentListQuery,
    errors: [404],
    success: { status: 200, description: 'A page of comments.', schema: CommentListSchema },
  },
  {
    ...common,
    grants: ['comments:create'],
    operationId: 'comments.create',
    method: 'POST',
    path: '/api/v2/comments',
    summary: 'Post a comment or a reply',
    description:
      `${about}\n\n` +
      'A root comment, or with `parent_comment_id` a reply to a live comment of the same record (422 at ' +
      '`#/parent_comment_id` otherwise); `root_comment_id` is derived (the root of the thread; a root’s own id). ' +
      'A record that is missing or not readable is 422 at `#/target_id`, an unknown type 422 at `#/target_type`.\n\n' +
      `${bodyRules}\n\n` +
      `\`attachment_ids\`: up to ${commentLimits.attachments} file_ids of uploads made with POST ` +
      '/api/v2/comments/attachments by the caller; each file must have arrived in time and pass the checks on its ' +
      'bytes, and is attached to this comment only (422 at `#/attachment_ids/<i>` otherwise).\n\n' +
      '201 with the comment and `Location: /api/v2/comments/{comment_id}`. Posting the same body again on the ' +
      'same record within the duplicate window (FSM_COMMENT_DEDUP_SECONDS, default 60 s) by the same author, as ' +
      'a root or as a reply anywhere in its threads, answers 200 with the existing comment as it is (the same ' +
      'Location, nothing written, nothing emitted); a deleted or edited comment no longer counts. Emits ' +
      'comment.created (on the event stream CASE_COMMENT_ADDED:V1 for comments on cases).',
    examples: {
      request: {
        target_type: 'core:case',
        target_id: caseId,
        parent_comment_id: commentId,
        body_markdown: 'Yes, and the photo is attached.',
        attachment_ids: [fileId],
      },
      response: reply,
    },
    body: CreateCommentSchema,
    success: {
      status: 201,
      description: 'Created.',
      schema: CommentSchema,
      alternatives: [
        {
          status: 200,
          description:
            'The existing comment: the same author posted the same body on the same target within the ' +
            'duplicate window (60 s); nothing was created.',
          location: true,
        },
      ],
    },
  },
  {
    ...common,
    grants: ['comments:create'],
    operationId: 'comments.mention_suggestions',
    method: 'GET',
    path: '/api/v2/comments/mention-suggestions',
    summary: 'Suggest users to mention',
    description:
      'Active users of the workspace whose first name, last name or e-mail has words starting with the words of ' +
      '`search` (case and accents ignored; without it, the first users), ordered by last name, at most `limit` ' +
      `(1..${commentLimits.suggestions}, default 10). Not paginated. Each comes with \`mention_markdown\`, the ` +
      'text to put into body_markdown to mention them. API clients are never suggested. E-mail addresses are not ' +
      'returned.',
    examples: {
      query: 'search=tin&target_type=core:case&limit=5',
      response: {
        items: [
          {
            user_id: tina,
            first_name: 'Tina',
            last_name: 'Tech',
            mention_markdown: `@[Tina Tech](user:${tina})`,
          },
        ],
      },
    },
    query: MentionSuggestionQuery,
    success: { status: 200, description: 'The users that match.', schema: MentionSuggestionListSchema },
  },
  {
    ...common,
    grants: ['comments:read'],
    operationId: 'comments.counts',
    method: 'GET',
    path: '/api/v2/comments/counts',
    summary: 'Count the comments on many records',
    description:
      `${about}\n\n` +
      `For up to ${commentLimits.countTargets} records of one type (\`target_ids\` repeated): \`total\`, the ` +
      'comments that are not deleted, and `unread`, those of them by others created after the caller’s read ' +
      'marker (all of them when the caller never marked the record read). Records that are missing or not ' +
      'readable are left out, in the order asked otherwise. One batch read serves all totals and markers; only ' +
      'records with comments newer than the caller’s marker cost a key range each.',
    examples: {
      query: `target_type=core:case&target_ids=${caseId}`,
      response: { items: [{ target_id: caseId, total: 2, unread: 1 }] },
    },
    query: CommentCountListQuery,
    success: { status: 200, description: 'Counts per record.', schema: CommentCountListSchema },
  },
  {
    ...common,
    grants: ['comments:read'],
    operationId: 'comments.mark_read',
    method: 'POST',
    path: '/api/v2/comments/read-markers',
    summary: 'Mark the comments on a record read',
    description:
      `${about}\n\n` +
      "Sets the caller's read marker of the record to now: every comment on it so far is read for the caller " +
      '(`is_unread` false, `unread_count` 0), until others post again. Each person has their own marker per ' +
      'record. A record that is missing or not readable is 422 at `#/target_id`.',
    examples: { request: { target_type: 'core:case', target_id: caseId } },
    body: ReadMarkerSchema,
    success: { status: 204, description: 'Marked read.' },
  },
  {
    ...common,
    grants: ['comments:create'],
    operationId: 'comments.create_attachment_upload',
    method: 'POST',
    path: '/api/v2/comments/attachments',
    summary: 'Start an attachment upload',
    description:
      'How a file gets onto a comment: (1) POST this intent with the file’s name and type; (2) POST a ' +
      '`multipart/form-data` form to `upload_fields.url` with every other entry of `upload_fields` as a field and ' +
      'the file last, as the field `file`, before `expires_at_utc`; (3) post the comment with the `file_id` in ' +
      '`attachment_ids`. The service then checks the stored file itself (size, stored Content-Type, the magic ' +
      'bytes of the declared type; text must be UTF-8), whatever the form or the client promised, and attaches ' +
      `it to that one comment. Types: ${attachmentTypes.join(', ')}; 1 byte to ${attachmentMaxSizeText}. Only the ` +
      'uploader can attach a file; an upload not attached within a week is forgotten. Readers get each ' +
      'attachment with a `url` valid for one hour (the bucket is private).\n\nLocation: the upload’s status ' +
      '(GET /api/v2/comments/attachments/{file_id}).',
    examples: {
      request: { original_file_name: 'valve.jpg', mime_type: 'image/jpeg' },
      response: {
        file_id: fileId,
        upload_fields: {
          url: 'https://fsm-prod-uploads.s3.eu-central-1.amazonaws.com/',
          'Content-Type': 'image/jpeg',
          bucket: 'fsm-prod-uploads',
          'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
          'X-Amz-Credential': 'ASIAEXAMPLEKEYID/20260611/eu-central-1/s3/aws4_request',
          'X-Amz-Date': '20260611T074000Z',
          key: `pending/tenants/019d2f40-0000-7000-8000-00000000a1b2/comment-attachments/${fileId}`,
          Policy: 'eyJleHBpcmF0aW9uIjoiMjAyNi0wNi0xMVQwNzo1MDowMFoiLCJjb25kaXRpb25zIjpbXX0=',
          'X-Amz-Signature': '6f1c2e0d9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d',
        },
        expires_at_utc: '2026-06-11T07:50:00Z',
      },
    },
    body: CreateAttachmentUploadSchema,
    success: { status: 201, description: 'The upload form.', schema: AttachmentUploadSchema },
  },
  {
    ...common,
    grants: ['comments:create'],
    operationId: 'comments.get_attachment_upload',
    method: 'GET',
    path: '/api/v2/comments/attachments/{file_id}',
    summary: 'Read an attachment upload’s status',
    description:
      'What became of an attachment upload of the caller (the Location of POST /api/v2/comments/attachments): ' +
      'PENDING until a file arrives, UPLOADED once it has (its bytes are checked when it is attached), EXPIRED ' +
      'when the form expired without a file, ATTACHED with the `comment_id` it belongs to. Uploads are private to ' +
      'their uploader: another person’s file_id is 404, as an unknown one.',
    examples: {
      response: {
        file_id: fileId,
        original_file_name: 'valve.jpg',
        mime_type: 'image/jpeg',
        status: 'UPLOADED',
        size_bytes: 48213,
        expires_at_utc: '2026-06-11T07:50:00Z',
        created_at: '2026-06-11T07:40:00.000Z',
      },
    },
    params: AttachmentFileParams,
    success: { status: 200, description: 'The upload’s status.', schema: AttachmentUploadStatusSchema },
  },
  {
    ...common,
    grants: ['comments:read'],
    operationId: 'comments.get',
    method: 'GET',
    path: '/api/v2/comments/{comment_id}',
    summary: 'Get a comment',
    description:
      `${about}\n\n` +
      'The comment as the caller sees it: reactions with `has_reacted`, `is_unread`, current names of the author ' +
      'and the mentioned users, attachment URLs valid one hour. A tombstone (is_deleted) has no body, reactions, ' +
      'mentions or attachments.',
    examples: { response: comment },
    params: CommentIdParams,
    success: { status: 200, description: 'The comment.', schema: CommentSchema },
  },
  {
    ...common,
    grants: ['comments:create'],
    operationId: 'comments.update',
    method: 'PATCH',
    path: '/api/v2/comments/{comment_id}',
    mergePatch: true,
    summary: 'Edit a comment',
    description:
      `${about}\n\n` +
      'The author, and only the author, edits the body, whatever their role: anyone else gets 403 ' +
      '`comments/cannot-edit-others` (data.reason not_author). The new body follows the same rules as on creation ' +
      'and its mentions are taken again; `is_edited` becomes true. A body equal to the stored one changes nothing. ' +
      'A deleted comment cannot be edited (422). Emits comment.updated with the previous body.\n\n' +
      bodyRules,
    examples: {
      request: { body_markdown: 'Is the **pressure valve** replaced? The old one leaked.', lock_version: 0 },
      response: {
        ...comment,
        body_markdown: 'Is the **pressure valve** replaced? The old one leaked.',
        mentions: [],
        is_edited: true,
        updated_at: '2026-06-11T07:41:12.500Z',
        lock_version: 1,
      },
    },
    params: CommentIdParams,
    body: UpdateCommentSchema,
    success: { status: 200, description: 'The edited comment.', schema: CommentSchema },
  },
  {
    ...common,
    grants: ['comments:create'],
    operationId: 'comments.delete',
    method: 'DELETE',
    path: '/api/v2/comments/{comment_id}',
    summary: 'Delete a comment',
    description:
      `${about}\n\n` +
      'A soft delete: the comment becomes a tombstone (`is_deleted` true) that keeps its place and its replies in ' +
      'the thread; its body is never returned again (it is kept for a restore). Authors delete their own ' +
      'comments; moderators (comments:update) delete anyone’s, which sets `is_deleted_by_moderator` (and ' +
      '`is_moderated`). Anyone else gets 403 `comments/cannot-edit-others` (data.reason not_author, ' +
      'data.required_grants comments:update). Deleting a tombstone again is 204 and changes nothing. Emits ' +
      'comment.updated (data.object is the tombstone, is_deleted true; `deleted` events are for records that are ' +
      'gone, and a tombstone can be restored).',
    examples: {},
    params: CommentIdParams,
    success: { status: 204, description: 'Deleted (a tombstone now).' },
  },
  {
    ...common,
    grants: ['comments:update'],
    operationId: 'comments.restore',
    method: 'POST',
    path: '/api/v2/comments/{comment_id}/restore',
    summary: 'Restore a deleted comment',
    description:
      `${about}\n\n` +
      'A tombstone becomes a live comment again, with its body, reactions, mentions and attachments; ' +
      '`is_deleted_by_moderator` is cleared, and `is_moderated` set when the restorer is not the author. Needs ' +
      'comments:update (moderators), for their own comments too. A live comment is 422 ' +
      '`comments.cannot-restore-not-deleted`. Emits comment.updated.',
    examples: {
      response: { ...comment, is_moderated: true, lock_version: 2, updated_at: '2026-06-11T09:15:00.000Z' },
    },
    params: CommentIdParams,
    success: { status: 200, description: 'The restored comment.', schema: CommentSchema },
  },
  {
    ...common,
    grants: ['comments:create'],
    operationId: 'comments.add_reaction',
    method: 'POST',
    path: '/api/v2/comments/{comment_id}/reactions',
    summary: 'React to a comment',
    description:
      `${about}\n\n` +
      `One of the eight reactions ${emojiList.join(' ')} (anything else is 422 at \`#/emoji\`), once per person and ` +
      'emoji: 201 the first time, 200 when the caller had given it already (nothing changes, nothing is emitted). ' +
      'Answers the comment with its counts per emoji and `has_reacted`. A deleted comment is 422 ' +
      '`comments.reaction-on-deleted-comment`. Emits comment.reaction (data.object.comment_id, emoji, user_id, ' +
      'action added, count).',
    examples: {
      request: { emoji: '👍' },
      response: {
        ...comment,
        reactions: [
          { emoji: '👍', count: 1, has_reacted: true },
          { emoji: '👀', count: 1, has_reacted: false },
        ],
      },
    },
    params: CommentIdParams,
    body: AddReactionSchema,
    success: {
      status: 201,
      description: 'Added; Location is the reaction’s URL (DELETE it to take the reaction back).',
      schema: CommentSchema,
      alternatives: [
        {
          status: 200,
          description: 'The caller had given this reaction already: nothing changed, nothing emitted.',
        },
      ],
    },
  },
  {
    ...common,
    grants: ['comments:create'],
    operationId: 'comments.remove_reaction',
    method: 'DELETE',
    path: '/api/v2/comments/{comment_id}/reactions/{emoji}',
    summary: 'Take back a reaction',
    description:
      `${about}\n\n` +
      'Removes the caller’s reaction with this emoji (percent-encoded in the path; an emoji that is not one of the ' +
      'eight is 404). 204 also when the caller had not given it (nothing emitted then). A deleted comment is 422 ' +
      '`comments.reaction-on-deleted-comment`. Emits comment.reaction (action removed).',
    examples: {},
    params: ReactionParams,
    success: { status: 204, description: 'The caller’s reaction is gone.' },
  },
  {
    group: 'comments',
    tags: ['Comments'],
    auth: 'none',
    published: false,
    operationId: 'comments.problem_type',
    method: 'GET',
    path: '/problems/comments/{problem_type}',
    summary: 'What a comment problem type means',
    description:
      'The problem type `comments/cannot-edit-others` has a `/` in its slug, so its type URI resolves here rather ' +
      'than under /problems/{problem_type}; the answer has the same shape.',
    examples: {},
    params: z.object({ problem_type: z.string() }),
    success: { status: 200, description: 'The problem type and what to do about it.' },
  },
] as const satisfies readonly RouteSpec[];
