/**
 * Field schemas shared by every resource, so each convention of SPEC.md is written once:
 * blank strings are `field-required`, e-mail addresses, coordinates, colours, RFC 3339
 * timestamps normalised to UTC, lock_version. Phone numbers live in phone-number.ts, so only the functions that take them
 * bundle libphonenumber's metadata.
 */
import * as z from 'zod';
import type { FieldIssueParams } from './field-error.ts';

const requiredIssue: FieldIssueParams = { fieldErrorType: 'field-required' };

/** C0 controls and DEL, except tab, line feed and carriage return, which text may hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const controlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * A string that must not be blank: blank or whitespace-only is `field-required`, never
 * "absent". `then` checks a value that is not blank further (its length, its format).
 */
export function nonBlank(then?: (ctx: z.core.ParsePayload<string>) => void) {
  return z.string().check((ctx) => {
    if (ctx.value.trim().length === 0) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: 'must not be blank',
        params: requiredIssue,
      });
    } else then?.(ctx);
  });
}

/** A string that must carry text: blank or whitespace-only is `field-required`, never "absent". */
export function text(options: { max?: number; min?: number } = {}) {
  const { max = 255, min = 1 } = options;
  return (
    nonBlank((ctx) => {
      if (ctx.value.length < min || ctx.value.length > max) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: `must be ${min} to ${max} characters long`,
        });
      } else if (controlCharacters.test(ctx.value)) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: 'must not contain control characters',
        });
      }
    })
      // `\S` (unanchored): at least one character that is not white space, i.e. not blank.
      .meta({ minLength: min, maxLength: max, pattern: '\\S' })
  );
}

/** What e-mail addresses are checked against: a local part, `@`, a domain with a dot. */
const emailPattern = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/**
 * An e-mail address as written to the service: text of at most 254 characters, checked, and
 * stored lower-cased (addresses compare case-insensitively). `pattern`: a stricter check where
 * one has always applied (the admin plane's owner address).
 */
export function emailAddress(options: { pattern?: RegExp } = {}) {
  const pattern = options.pattern ?? emailPattern;
  return text({ max: 254 })
    .check((ctx) => {
      if (ctx.value.trim() && !pattern.test(ctx.value)) {
        ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must be an e-mail address' });
      }
    })
    .transform((value) => value.toLowerCase())
    .meta({ format: 'email' });
}

/** WGS 84 latitude in degrees. */
export function latitude() {
  return z.number().min(-90).max(90).meta({ description: 'WGS 84 latitude in degrees, -90..90.' });
}

/** WGS 84 longitude in degrees. */
export function longitude() {
  return z.number().min(-180).max(180).meta({ description: 'WGS 84 longitude in degrees, -180..180.' });
}

const hexPattern = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** The published pattern of hex colours (responses carry it too). */
export const hexColorPattern = hexPattern.source;

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`. */
export function hexColor() {
  return text({ max: 9 })
    .check((ctx) => {
      if (ctx.value.trim() && !hexPattern.test(ctx.value)) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: 'must be a hex colour such as #1a2b3c',
        });
      }
    })
    .meta({ pattern: hexColorPattern, description: 'Hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa.' });
}

const cssNamedColors = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown ' +
    'burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan ' +
    'darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid ' +
    'darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet ' +
    'deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ' +
    'ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki ' +
    'lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow ' +
    'lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine ' +
    'mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen ' +
    'mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace ' +
    'olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred ' +
    'papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue ' +
    'saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey ' +
    'snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow ' +
    'yellowgreen transparent'
  ).split(' '),
);
const cssFunctionPattern = /^(?:rgba?|hsla?)\(\s*[-+0-9.%\s,/deg]+\)$/i;

/**
 * The published pattern of CSS colours: a hex colour, a word (a named colour: which names, the
 * description says) or an rgb()/hsl() function, with the surrounding blanks the check trims.
 * Wider than the check (any word), never narrower.
 */
export const cssColorPattern = `^\\s*(?:${hexPattern.source.slice(1, -1)}|[A-Za-z]+|(?:rgba?|hsla?)\\([-+0-9.%\\s,/deg]+\\))\\s*$`;

/** A hex colour, a CSS named colour or an rgb()/hsl() function. */
export function cssColor() {
  return text({ max: 64 })
    .check((ctx) => {
      const value = ctx.value.trim();
      if (!value) return;
      if (hexPattern.test(value) || cssNamedColors.has(value.toLowerCase()) || cssFunctionPattern.test(value))
        return;
      ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must be a hex or CSS colour value' });
    })
    .meta({
      pattern: cssColorPattern,
      description:
        'Hex (#1a2b3c), a CSS named colour (any case: red, rebeccapurple), or rgb()/rgba()/hsl()/hsla().',
    });
}

/** lock_version of a stored record, as read: 0 on creation, one more with every write. */
export function storedVersion() {
  return z.int().min(0);
}

/** lock_version in a write body: omitted or null means last write wins. */
export function lockVersion() {
  return z.int().min(0).nullable().optional().meta({ description: 'Optimistic concurrency token.' });
}

export function uuid() {
  return z.uuid();
}

const rfc3339 = z.iso.datetime({ offset: true, local: true });

/**
 * RFC 3339 date-time with seconds; a value without zone is read as UTC. Normalised to `...Z`.
 * Published as `format: date-time` (the checking regexes stay out of the OpenAPI document).
 */
export function dateTime() {
  return z
    .string()
    .transform((raw, ctx) => {
      // An unencoded `+02:00` offset in a query string arrives as ` 02:00` (form decoding turns
      // `+` into a space); a date-time never holds a space, so read it back as the sign it was.
      const value = raw.replace(/ (\d\d:?\d\d)$/, '+$1');
      if (!rfc3339.safeParse(value).success || !/T\d\d:\d\d:\d\d/.test(value)) {
        ctx.issues.push({
          code: 'custom',
          input: raw,
          message: 'must be an RFC 3339 date-time with seconds: YYYY-MM-DDTHH:mm:ss[.sss](Z|±HH:mm)',
        });
        return z.NEVER;
      }
      return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`).toISOString();
    })
    .meta({ format: 'date-time' });
}

/**
 * A field the service manages (a state, a system-assigned number): part of the representation,
 * never of a write. Sending it is a field-level 422 naming it, not a silent drop, so a client
 * that believes it set the value learns otherwise.
 */
export function systemManaged(description: string) {
  return z
    .unknown()
    .optional()
    .check((ctx) => {
      if (ctx.value !== undefined) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: 'is system-managed and cannot be written',
          params: { fieldErrorType: 'field-unknown' } satisfies FieldIssueParams,
        });
      }
    })
    .meta({ description: `${description} System-managed: sending it is 422.` });
}
