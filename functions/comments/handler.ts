/** Comments: parse, call the domain, respond. */

import * as comments from '../../shared/domain/comments/comment.service.ts';
import {
  attachmentUploadStatus,
  createAttachmentUpload,
} from '../../shared/domain/comments/comment-attachments.ts';
import { commentCounts, listComments, markRead } from '../../shared/domain/comments/comment-list.ts';
import { mentionSuggestions } from '../../shared/domain/comments/comment-mentions.ts';
import { addReaction, removeReaction } from '../../shared/domain/comments/comment-reactions.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { ProblemError, problemTypeUri } from '../../shared/http/problem.ts';
import { problemTypeDoc } from '../../shared/http/problem-docs.ts';
import { commentRoutes } from '../../shared/routes/groups/comments.routes.ts';

const locationOf = (id: string) => `/api/v2/comments/${id}`;

export const handler = createGroupHandler(commentRoutes, {
  'comments.list': async ({ ctx, query }) => ({ body: await listComments(ctx, query) }),
  'comments.create': async ({ ctx, body }) => {
    const { comment, created } = await comments.createComment(ctx, body);
    return { status: created ? 201 : 200, body: comment, location: locationOf(comment.id) };
  },
  'comments.mention_suggestions': async ({ ctx, query }) => ({ body: await mentionSuggestions(ctx, query) }),
  'comments.counts': async ({ ctx, query }) => ({ body: await commentCounts(ctx, query) }),
  'comments.mark_read': async ({ ctx, body }) => {
    await markRead(ctx, body);
    return {};
  },
  'comments.create_attachment_upload': async ({ ctx, body }) => {
    const upload = await createAttachmentUpload(ctx, body);
    return { body: upload, location: `/api/v2/comments/attachments/${upload.file_id}` };
  },
  'comments.get_attachment_upload': async ({ ctx, params }) => ({
    body: await attachmentUploadStatus(ctx, params.file_id),
  }),
  'comments.get': async ({ ctx, params }) => ({ body: await comments.getComment(ctx, params.comment_id) }),
  'comments.update': async ({ ctx, params, body }) => ({
    body: await comments.updateComment(ctx, params.comment_id, body),
  }),
  'comments.delete': async ({ ctx, params }) => {
    await comments.deleteComment(ctx, params.comment_id);
    return {};
  },
  'comments.restore': async ({ ctx, params }) => ({
    body: await comments.restoreComment(ctx, params.comment_id),
  }),
  'comments.add_reaction': async ({ ctx, params, body }) => {
    const { comment, added } = await addReaction(ctx, params.comment_id, body.emoji);
    if (!added) return { status: 200, body: comment };
    const reaction = `/api/v2/comments/${params.comment_id}/reactions/${encodeURIComponent(body.emoji)}`;
    return { status: 201, body: comment, location: reaction };
  },
  'comments.remove_reaction': async ({ ctx, params }) => {
    await removeReaction(ctx, params.comment_id, params.emoji);
    return {};
  },
  'comments.problem_type': async ({ params }) => {
    const slug = `comments/${params.problem_type}`;
    const doc = problemTypeDoc(slug, problemTypeUri(slug));
    if (!doc) throw new ProblemError('not-found', { detail: `No problem type ${slug}.` });
    return { body: doc, headers: { 'cache-control': 'public, max-age=3600' } };
  },
});
