/**
 * Comment: a threaded discussion entry on any record of the workspace (SPEC.md, Comment; the
 * comment rows of States and transitions, of both endpoint tables, Errors and Limits; the
 * comment decisions of API-DECISIONS.md). Published schema names: Comment, CreateComment,
 * UpdateComment, CommentList, CommentAuthor, CommentReaction, CommentMention, CommentAttachment,
 * CreateCommentReaction, CreateCommentReadMarker, CommentCount, CommentCountList,
 * CommentMentionSuggestion, CommentMentionSuggestionList, CreateCommentAttachmentUpload,
 * CommentAttachmentUpload.
 */
import * as z from 'zod';
import { storedVersion, text } from '../../schema/fields.ts';
import { PageSchema } from '../../schema/list.ts';
import { pageParam, searchParam, sizeParam } from '../../schema/query-params.ts';

/** SPEC.md, Limits: comments. */
export const commentLimits = {
  body: 10_000,
  /** Lists: size 1..1000, default 20 (root comments per page in threaded order). */
  pageSize: 1000,
  /** Targets of one counts request. */
  countTargets: 100,
  attachments: 10,
  mentions: 50,
  /** Mention suggestions: `limit` 1..50, default 10. */
  suggestions: 50,
} as const;

/** The eight reactions of SPEC.md, each with the name its counter and reaction items are stored under. */
export const commentEmoji = {
  '👍': 'thumbs_up',
  '❤️': 'heart',
  '😂': 'joy',
  '🎉': 'tada',
  '😮': 'open_mouth',
  '😢': 'cry',
  '👀': 'eyes',
  '🙌': 'raised_hands',
} as const;
export type CommentEmoji = keyof typeof commentEmoji;
export const emojiList = Object.keys(commentEmoji) as CommentEmoji[];

export function isCommentEmoji(value: string): value is CommentEmoji {
  return Object.hasOwn(commentEmoji, value);
}

/** Built-in resources a comment may be on (API-DECISIONS.md: `core:<resource>`). */
export const coreTargetTypes = ['case', 'tour', 'vehicle', 'device', 'area', 'user'] as const;
export type CoreTargetType = (typeof coreTargetTypes)[number];

/** `core:<resource>` or `custom_object:<definition_slug>`. */
export const targetTypePattern = `^(?:core:(?:${coreTargetTypes.join('|')})|custom_object:[a-z][a-z0-9_]{0,62})$`;
const targetTypeRegex = new RegExp(targetTypePattern);

const targetTypeDescription =
  'What the comment is on: `core:case`, `core:tour`, `core:vehicle`, `core:device`, `core:area`, `core:user`, ' +
  'or `custom_object:<definition_slug>` for a record of a custom-object type.';

function targetTypeField() {
  return text({ max: 80 })
    .check((ctx) => {
      if (ctx.value.trim() && !targetTypeRegex.test(ctx.value)) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: `must be core:<${coreTargetTypes.join('|')}> or custom_object:<definition_slug>`,
        });
      }
    })
    .meta({ pattern: targetTypePattern, description: targetTypeDescription, example: 'core:case' });
}

const targetId = z.uuid().meta({ description: 'Identifier of the record the comment is on.' });

export const CommentAuthorSchema = z
  .object({
    id: z.uuid().meta({ description: 'The user (or API client’s service account) who wrote it.' }),
    first_name: z.string().optional().meta({
      description: 'Current first name; an API client’s service account shows its client id here.',
    }),
    last_name: z.string().optional().meta({ description: 'Current last name; omitted for API clients.' }),
    is_deleted: z.boolean().meta({ description: 'true when the author no longer exists in the workspace.' }),
  })
  .meta({ id: 'CommentAuthor', description: 'Who wrote a comment, with their current name.' });

export const CommentReactionSchema = z
  .object({
    emoji: z.enum(emojiList).meta({ description: 'One of the eight reactions.' }),
    count: z.int().min(1).meta({ description: 'How many people reacted with it.' }),
    has_reacted: z
      .boolean()
      .meta({ description: 'Whether the caller is one of them (reacted with this emoji).' }),
  })
  .meta({ id: 'CommentReaction', description: 'One emoji on a comment, and how many gave it.' });

export const CommentMentionSchema = z
  .object({
    user_id: z.uuid(),
    first_name: z.string().optional().meta({ description: 'Current first name.' }),
    last_name: z.string().optional().meta({ description: 'Current last name.' }),
    is_deleted: z.boolean().meta({ description: 'true when the user no longer exists in the workspace.' }),
  })
  .meta({
    id: 'CommentMention',
    description:
      'A user the body mentions (`@[Name](user:<user_id>)`), once each, in order of first mention.',
  });

export const CommentAttachmentSchema = z
  .object({
    file_id: z.uuid().meta({ description: 'The file_id of its upload.' }),
    file_name: z.string().meta({ description: 'As the upload named it.' }),
    mime_type: z.string().meta({ description: 'The checked media type of the file.' }),
    size_bytes: z.int().min(1),
    url: z.url().meta({ description: 'Reads the file; valid until url_expires_at (the bucket is private).' }),
    url_expires_at: z.iso
      .datetime()
      .meta({ description: 'When url stops working (one hour after the read).' }),
  })
  .meta({ id: 'CommentAttachment', description: 'A file attached to a comment.' });

export const CommentSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the comment (UUIDv7: created_at is its instant).' }),
    target_type: z.string().meta({ pattern: targetTypePattern, description: targetTypeDescription }),
    target_id: targetId,
    parent_comment_id: z
      .uuid()
      .optional()
      .meta({ description: 'The comment this one replies to; omitted on roots.' }),
    root_comment_id: z.uuid().meta({
      description: 'The root of its thread: the comment’s own id on a root comment.',
    }),
    body_markdown: z
      .string()
      .min(1)
      .max(commentLimits.body)
      .optional()
      .meta({
        description:
          'The body as written (restricted Markdown, see Create comment). Omitted on a tombstone (is_deleted): a ' +
          'deleted comment’s body is never returned.',
      }),
    author: CommentAuthorSchema,
    created_at: z.iso.datetime(),
    updated_at: z.iso
      .datetime()
      .meta({ description: 'Last edit, deletion or restore (reactions do not count).' }),
    lock_version: storedVersion().meta({
      description: 'Starts at 0, one more with every edit, deletion and restore.',
    }),
    is_edited: z.boolean().meta({ description: 'The author changed the body after posting it.' }),
    is_moderated: z.boolean().meta({
      description:
        'A moderator (someone other than the author, holding comments:update) deleted or restored it at least once.',
    }),
    is_deleted: z
      .boolean()
      .meta({ description: 'A tombstone: the comment was deleted and keeps its place in the thread.' }),
    is_deleted_by_moderator: z.boolean().meta({
      description: 'The tombstone was made by a moderator, not by the author.',
    }),
    is_unread: z.boolean().meta({
      description:
        'For the caller: written by someone else after the caller last marked this target read (never for tombstones).',
    }),
    reactions: z.array(CommentReactionSchema).meta({
      description: 'The emoji given, in the fixed order of the eight; empty on tombstones.',
    }),
    mentions: z
      .array(CommentMentionSchema)
      .meta({ description: 'Users mentioned in the body; empty on tombstones.' }),
    attachments: z.array(CommentAttachmentSchema).meta({
      description: 'Attached files in the order given; empty on tombstones.',
    }),
  })
  .meta({ id: 'Comment', description: 'A comment on a record of the workspace.' });

export type Comment = z.infer<typeof CommentSchema>;

const bodyDescription =
  `Markdown (CommonMark with GitHub tables and ~~strikethrough~~), 1..${commentLimits.body} characters. Allowed: ` +
  'paragraphs, line breaks, headings, emphasis, strong, strikethrough, inline code, code blocks, block quotes, ' +
  'lists, tables, horizontal rules, links (http, https, mailto or relative) and mentions ' +
  '`@[Name](user:<user_id>)`. Refused with 422 at #/body_markdown: raw HTML (tags, comments; write `\\<` or use ' +
  'backticks to show a `<`), images (attach files instead) and links of any other scheme (javascript:, data:, ' +
  'vbscript:, file:, …), as well as mentions of ids that are not users of the workspace.';

export const CreateCommentSchema = z
  .object({
    target_type: targetTypeField(),
    target_id: targetId,
    parent_comment_id: z.uuid().optional().meta({
      description:
        'Reply to this comment: it must be a live comment on the same target. Omit for a root comment.',
    }),
    body_markdown: text({ max: commentLimits.body }).meta({ description: bodyDescription }),
    attachment_ids: z
      .array(z.uuid())
      .max(commentLimits.attachments)
      .optional()
      .meta({
        description:
          `Up to ${commentLimits.attachments} file_ids of your own uploads (POST /api/v2/comments/attachments), ` +
          'each attached once; the file must have arrived and pass the checks.',
      }),
  })
  .meta({ id: 'CreateComment', description: 'A new comment, or a reply.' });

export type CreateComment = z.output<typeof CreateCommentSchema>;

export const UpdateCommentSchema = z
  .object({
    body_markdown: text({ max: commentLimits.body }).optional().meta({
      description: `The new body (same rules as on creation); null or blank is 422.`,
    }),
    lock_version: z.int().min(0).nullable().optional().meta({ description: 'Optimistic concurrency token.' }),
  })
  .meta({ id: 'UpdateComment', description: 'JSON Merge Patch of a comment: its body (author only).' });

export type UpdateComment = z.output<typeof UpdateCommentSchema>;

export const commentSorts = ['threaded:desc', 'threaded:asc', 'flat:desc', 'flat:asc'] as const;
export type CommentSort = (typeof commentSorts)[number];

const targetTypeParam = z
  .string()
  .check((ctx) => {
    if (!targetTypeRegex.test(ctx.value)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `must be core:<${coreTargetTypes.join('|')}> or custom_object:<definition_slug>`,
      });
    }
  })
  .meta({ pattern: targetTypePattern, description: targetTypeDescription });

export const CommentListQuery = z.object({
  target_type: targetTypeParam,
  target_id: targetId,
  page: pageParam(),
  size: sizeParam(commentLimits.pageSize),
  sort: z
    .enum(commentSorts)
    .optional()
    .meta({
      default: 'threaded:desc',
      description:
        'threaded:desc (default): root comments newest first, each followed by all its replies (at any depth) ' +
        'oldest first. threaded:asc: roots oldest first, replies the same. flat:desc / flat:asc: every comment by ' +
        'creation, newest or oldest first. In threaded order `page` and `size` count root comments.',
    }),
});
export type CommentListQueryInput = z.output<typeof CommentListQuery>;

export const CommentListSchema = z
  .object({
    items: z.array(CommentSchema),
    unread_count: z.int().min(0).meta({
      description: 'Comments on the target by others that the caller has not read (tombstones do not count).',
    }),
    page: PageSchema,
  })
  .meta({ id: 'CommentList', description: 'A page of the comments on one record.' });

export const CommentIdParams = z.object({
  comment_id: z.uuid().meta({ description: 'Identifier of the comment.' }),
});

export const ReactionParams = z.object({
  comment_id: z.uuid().meta({ description: 'Identifier of the comment.' }),
  emoji: z.string().meta({
    enum: emojiList,
    description: 'One of the eight reactions, percent-encoded in the path (👍 is %F0%9F%91%8D).',
  }),
});

export const AddReactionSchema = z
  .object({
    emoji: z.enum(emojiList).meta({ description: `One of ${emojiList.join(' ')}.` }),
  })
  .meta({ id: 'CreateCommentReaction', description: 'The caller’s reaction.' });

export const ReadMarkerSchema = z
  .object({ target_type: targetTypeField(), target_id: targetId })
  .meta({ id: 'CreateCommentReadMarker', description: 'The record whose comments the caller has read.' });

export const CommentCountListQuery = z.object({
  target_type: targetTypeParam,
  target_ids: z
    .array(z.uuid())
    .min(1)
    .max(commentLimits.countTargets)
    .meta({
      description: `Repeated (\`target_ids=<uuid>&target_ids=<uuid>\`), 1..${commentLimits.countTargets}. Records that do not exist or that the caller may not read are left out of the answer.`,
    }),
});

export const CommentCountListSchema = z
  .object({
    items: z.array(
      z
        .object({
          target_id: z.uuid(),
          total: z.int().min(0).meta({ description: 'Comments on the record, tombstones not counted.' }),
          unread: z
            .int()
            .min(0)
            .meta({ description: 'Of those, written by others after the caller’s read marker.' }),
        })
        .meta({ id: 'CommentCount' }),
    ),
  })
  .meta({
    id: 'CommentCountList',
    description: 'Comment totals and unread counts per record, in the order asked.',
  });

export const MentionSuggestionQuery = z.object({
  search: searchParam(
    'Words, each matching the start of a word of the first name, last name or e-mail (case and accents ' +
      'ignored); omitted: the first users by last name.',
  ),
  target_type: targetTypeParam.optional().meta({
    pattern: targetTypePattern,
    description:
      'The kind of record being commented on; accepted for clients that send it, ranks nothing yet.',
  }),
  limit: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > commentLimits.suggestions) {
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `must be an integer between 1 and ${commentLimits.suggestions}`,
        });
        return z.NEVER;
      }
      return Number(value);
    })
    .meta({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: commentLimits.suggestions,
      default: 10,
      description: `How many users at most, 1..${commentLimits.suggestions}, default 10.`,
    }),
});

export const MentionSuggestionListSchema = z
  .object({
    items: z.array(
      z
        .object({
          user_id: z.uuid(),
          first_name: z.string().optional(),
          last_name: z.string().optional(),
          mention_markdown: z.string().meta({
            description:
              'What to insert into body_markdown to mention the user: `@[First Last](user:<user_id>)`.',
          }),
        })
        .meta({ id: 'CommentMentionSuggestion' }),
    ),
  })
  .meta({
    id: 'CommentMentionSuggestionList',
    description: 'Active users of the workspace matching the search, by last name; not paginated.',
  });

/** Files a comment may carry: type → how its bytes must start (comment-attachments.ts checks them). */
export const attachmentTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
] as const;
export type AttachmentType = (typeof attachmentTypes)[number];
export const attachmentMaxBytes = 10 * 1024 * 1024;
export const attachmentMaxSizeText = '10 MiB';

export const CreateAttachmentUploadSchema = z
  .object({
    original_file_name: text({ max: 255 }).meta({
      description: 'The name of the file on the user’s device, 1..255 characters; shown with the attachment.',
      example: 'boiler-plate.jpg',
    }),
    mime_type: text({ max: 100 })
      .check((ctx) => {
        if (ctx.value.trim() && !(attachmentTypes as readonly string[]).includes(ctx.value)) {
          ctx.issues.push({
            code: 'custom',
            input: ctx.value,
            message: `must be one of ${attachmentTypes.join(', ')}`,
          });
        }
      })
      // A MIME type is an extensible value (SPEC.md, Conventions): a string whose accepted values
      // are documented, not an enum a client generator would close; another is a field-level 422.
      .meta({
        description:
          `The file’s media type; accepted: ${attachmentTypes.join(', ')}, any other is 422 at ` +
          `\`#/mime_type\`. The stored bytes must be of this type. At most ${attachmentMaxSizeText}.`,
        example: attachmentTypes[0],
      }),
  })
  .meta({
    id: 'CreateCommentAttachmentUpload',
    description: 'Names a file about to be attached to a comment.',
  });

export type CreateAttachmentUpload = z.output<typeof CreateAttachmentUploadSchema>;

export const AttachmentUploadSchema = z
  .object({
    file_id: z
      .uuid()
      .meta({ description: 'Send it in attachment_ids of a new comment once the file is uploaded.' }),
    upload_fields: z
      .object({ url: z.url().meta({ description: 'Where to POST the form (the bucket).' }) })
      .catchall(z.string())
      .meta({
        description:
          'Every field of the presigned POST form, and `url`, where to send it. POST a `multipart/form-data` body ' +
          'to `url` with each field as given, then the file as the last part, named `file`. Treat the fields as opaque.',
      }),
    expires_at_utc: z.iso.datetime().meta({
      description: 'The form is valid until then (UTC); a file that arrives later cannot be attached.',
    }),
  })
  .meta({
    id: 'CommentAttachmentUpload',
    description: 'A presigned upload form for one comment attachment.',
  });

export type AttachmentUpload = z.infer<typeof AttachmentUploadSchema>;

export const AttachmentFileParams = z.object({
  file_id: z.uuid().meta({ description: 'The `file_id` of an attachment upload.' }),
});

export const AttachmentUploadStatusSchema = z
  .object({
    file_id: z.uuid(),
    original_file_name: z.string(),
    mime_type: z.string(),
    status: z.enum(['PENDING', 'UPLOADED', 'EXPIRED', 'ATTACHED']).meta({
      description:
        'PENDING: no file has arrived and the form is still valid; UPLOADED: a file arrived (its bytes are ' +
        'checked when it is attached); EXPIRED: the form expired without a file; ATTACHED: on `comment_id`.',
    }),
    size_bytes: z
      .int()
      .optional()
      .meta({ description: 'Size of the file that arrived (UPLOADED, ATTACHED).' }),
    comment_id: z.uuid().optional().meta({ description: 'The comment the file is attached to (ATTACHED).' }),
    expires_at_utc: z.iso.datetime().meta({ description: 'When the upload form expires (UTC).' }),
    created_at: z.iso.datetime(),
  })
  .meta({
    id: 'CommentAttachmentUploadStatus',
    description: 'What became of one attachment upload of the caller.',
  });

export type AttachmentUploadStatus = z.infer<typeof AttachmentUploadStatusSchema>;
