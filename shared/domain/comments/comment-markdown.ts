/**
 * The restricted Markdown of comment bodies, checked when a body is written (create and edit).
 * The body is stored exactly as sent, so it must be safe for any CommonMark renderer a client
 * uses, whatever its HTML setting. markdown-it (CommonMark plus GitHub tables and strikethrough)
 * parses it, with raw HTML recognised and every link kept, so that what would be HTML or a link
 * anywhere is seen here:
 *
 * - raw HTML (block or inline, comments included) is refused: clients that render HTML would run
 *   it, and silently rewriting what a person wrote is worse than telling them (`\<` or a code span
 *   shows a literal `<`);
 * - images are refused: a remote image loads from a third party for every reader (a tracking
 *   pixel); files are attached through uploads instead;
 * - links (inline, reference and autolinks) may use http, https, mailto or no scheme (relative);
 *   any other scheme (javascript:, data:, vbscript:, file:, …) is refused, judged after entity and
 *   percent decoding and with the tab and line breaks browsers drop removed;
 * - `user:<uuid>` links are mentions (written `@[Name](user:<uuid>)`); a `user:` link that names
 *   no uuid is refused. Whether the ids are users of the workspace is the caller's check.
 *
 * Each refusal is a field error at the body's pointer with the line it starts on.
 */
import MarkdownIt from 'markdown-it';
import type { FieldError } from '../../schema/field-error.ts';

const parser = new MarkdownIt('default', { html: true, linkify: false, typographer: false });
// Every link is kept as a link (markdown-it would turn a javascript: link into text), so that
// this check sees it; the body is never rendered here.
parser.validateLink = () => true;

const allowedSchemes = new Set(['http', 'https', 'mailto']);
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Refusals reported per body at most: enough to fix a body, short enough to read. */
const maxErrors = 10;

export interface MarkdownVerdict {
  errors: FieldError[];
  /** Mentioned user ids, lower-cased, once each, in order of first mention. */
  mentionIds: string[];
}

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

function decoded(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
const leadingControls = /^[\u0000-\u0020]+/;

/** The scheme a browser would see (lower case), or undefined for a relative reference. */
export function schemeOf(href: string): string | undefined {
  // Browsers remove tab, CR and LF anywhere in a URL and trim C0 controls and spaces.
  const cleaned = decoded(href)
    .replace(/[\t\n\r]/g, '')
    .replace(leadingControls, '');
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(cleaned);
  return match?.[1]?.toLowerCase();
}

const snippet = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text).replace(/\s+/g, ' ');

export function checkCommentMarkdown(body: string, pointer = '#/body_markdown'): MarkdownVerdict {
  const errors: FieldError[] = [];
  const mentions: string[] = [];
  const refuse = (line: number, construct: string, detail: string) => {
    if (errors.length < maxErrors) {
      errors.push({
        type: 'field-invalid',
        pointer,
        detail: `line ${line}: ${detail}`,
        data: { line, construct },
      });
    }
  };
  const checkLink = (href: string, line: number) => {
    const scheme = schemeOf(href);
    if (scheme === 'user') {
      const id = decoded(href).trim().slice('user:'.length);
      if (!uuidPattern.test(id)) {
        refuse(
          line,
          'mention',
          `\`${snippet(href)}\` names no user id; a mention is written @[Name](user:<user_id>)`,
        );
      } else if (!mentions.includes(id.toLowerCase())) {
        mentions.push(id.toLowerCase());
      }
      return;
    }
    if (scheme !== undefined && !allowedSchemes.has(scheme)) {
      refuse(line, 'link', `links may use http, https or mailto (or be relative), not ${scheme}:`);
    }
  };
  const walk = (tokens: readonly Token[], line: number) => {
    for (const token of tokens) {
      const at = token.map ? token.map[0] + 1 : line;
      switch (token.type) {
        case 'html_block':
        case 'html_inline':
          refuse(
            at,
            'html',
            `raw HTML is not allowed (\`${snippet(token.content.trim())}\`); write \\< for a literal <, or use a code span`,
          );
          break;
        case 'image':
          refuse(at, 'image', 'images are not allowed; attach the file with attachment_ids instead');
          break;
        case 'link_open':
          checkLink(String(token.attrGet('href') ?? ''), at);
          break;
        default:
          break;
      }
      if (token.children) walk(token.children, at);
    }
  };
  walk(parser.parse(body, {}), 1);
  return { errors, mentionIds: mentions };
}
