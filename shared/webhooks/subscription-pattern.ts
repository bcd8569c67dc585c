/**
 * Subscription patterns of webhook endpoints: which event names a subscription such as
 * `brand.created`, `folder.*`, `*.created` or `custom_object.*.created` selects (SPEC "Webhooks",
 * table "Subscription patterns"). The endpoint service validates patterns on save with it and the
 * dispatcher matches every event against every enabled endpoint with it.
 *
 * An event name is `<resource_path>.<verb>`: two or more dot-separated segments of `[a-z0-9_-]`
 * (custom-object slugs may hold `-`). A pattern is made of such segments and `*` segments, and
 * what a `*` stands for depends on where it is:
 * - last (a wildcard verb): one or more segments, so `folder.*` widens to
 *   `folder.permissions.updated`, while a named verb pins the path (`folder.updated` does not);
 * - first, before named segments: one or more segments (`*.created` is created on any path);
 * - alone: one or more segments, i.e. every event;
 * - anywhere else: exactly one segment (`custom_object.*.created`: one slug).
 * Prefixes and suffixes match whole segments, so `folder.*` never matches `folder_archive.updated`.
 *
 * Matching walks segments instead of compiling user input into a regex: only the first and the
 * last `*` are variable-length, so a pattern is a fixed run of segments that is tried at one
 * position, or at every position when both ends are open. The cost is bounded by
 * (event segments x pattern segments) with nothing to backtrack into, whatever a workspace saves.
 */

export type PatternProblem = { reason: string };

const wildcard = '*';

/**
 * A pattern split at its variable-length ends. `fixed` holds the segments that must line up one
 * to one with the event's, `*` among them standing for exactly one segment.
 */
interface CompiledPattern {
  openStart: boolean;
  openEnd: boolean;
  fixed: readonly string[];
}

/** a-z, 0-9, `_` and `-`: the segment alphabet of event names and patterns. */
function isSegmentCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 45;
}

function isSegment(segment: string): boolean {
  if (segment.length === 0) return false;
  for (let i = 0; i < segment.length; i++) {
    if (!isSegmentCode(segment.charCodeAt(i))) return false;
  }
  return true;
}

/**
 * The segments of a well-formed event name, or undefined: a malformed name (upper case, empty
 * segment, no verb) is no event, so no pattern, not even `*`, matches it.
 */
function eventSegments(eventName: string): string[] | undefined {
  const segments = eventName.split('.');
  if (segments.length < 2) return undefined;
  return segments.every(isSegment) ? segments : undefined;
}

/**
 * The first character that is neither in the alphabet nor `*`, by code point so the message shows
 * it whole. It is looked for before misplaced `*`s: in `folder.* ` the stray space is the mistake.
 */
function foreignCharacter(segment: string): string | undefined {
  for (const character of segment) {
    if (character !== wildcard && !isSegmentCode(character.charCodeAt(0))) return character;
  }
  return undefined;
}

/**
 * Why a subscription is not a well-formed event name or pattern, as a sentence for the 422
 * detail; undefined when it is well-formed. Well-formed is not the same as useful: whether a
 * pattern can match anything is matchesSomeEvent's question (a lone `folder` is well-formed and
 * matches nothing, since every event has a verb).
 */
export function patternSyntaxProblem(pattern: string): PatternProblem | undefined {
  if (pattern.length === 0) return { reason: 'a subscription is an event name or a pattern; it is empty' };
  for (const segment of pattern.split('.')) {
    if (segment.length === 0) {
      return { reason: 'segments are separated by single dots, with no leading or trailing dot' };
    }
    const foreign = foreignCharacter(segment);
    if (foreign !== undefined) {
      return { reason: `segments are lowercase letters, digits, _ and -; found ${JSON.stringify(foreign)}` };
    }
    if (segment !== wildcard && segment.includes(wildcard)) {
      return { reason: '* stands for whole segments (folder.*, *.created), never for part of one' };
    }
  }
  return undefined;
}

/** Only for a pattern that holds a `*` and passed patternSyntaxProblem. */
function compileWildcardPattern(pattern: string): CompiledPattern {
  const segments = pattern.split('.');
  // `*` alone is a lone open start: one or more segments.
  const openStart = segments[0] === wildcard;
  const openEnd = segments.length > 1 && segments[segments.length - 1] === wildcard;
  return { openStart, openEnd, fixed: segments.slice(openStart ? 1 : 0, openEnd ? -1 : undefined) };
}

function fixedRunMatchesAt(fixed: readonly string[], segments: readonly string[], offset: number): boolean {
  for (let i = 0; i < fixed.length; i++) {
    const expected = fixed[i];
    if (expected !== wildcard && expected !== segments[offset + i]) return false;
  }
  return true;
}

function matchesSegments(pattern: CompiledPattern, segments: readonly string[]): boolean {
  const { openStart, openEnd, fixed } = pattern;
  // An open end stands for at least one segment, so it leaves that much room.
  const slack = segments.length - fixed.length - (openStart ? 1 : 0) - (openEnd ? 1 : 0);
  if (slack < 0) return false;
  if (!openStart) return (openEnd || slack === 0) && fixedRunMatchesAt(fixed, segments, 0);
  if (!openEnd) return fixedRunMatchesAt(fixed, segments, segments.length - fixed.length);
  for (let offset = 1; offset <= 1 + slack; offset++) {
    if (fixedRunMatchesAt(fixed, segments, offset)) return true;
  }
  return false;
}

/**
 * The matcher of one endpoint's subscriptions, built once and then asked about every event.
 * Exact names are a set lookup; only wildcard patterns walk segments, and the event name is split
 * once per question, not once per pattern. Malformed patterns never match (they cannot be saved;
 * skipping them keeps one bad stored row from silencing the endpoint's other subscriptions).
 *
 * There is no cache across calls: building costs a split per pattern, far below the query that
 * loaded the endpoint, and the dispatcher keeps the result for its batch.
 */
export function compilePatterns(patterns: readonly string[]): (eventName: string) => boolean {
  const exactNames = new Set<string>();
  const wildcardPatterns = new Map<string, CompiledPattern>();
  for (const pattern of patterns) {
    if (patternSyntaxProblem(pattern) !== undefined) continue;
    if (pattern.includes(wildcard)) {
      if (!wildcardPatterns.has(pattern)) wildcardPatterns.set(pattern, compileWildcardPattern(pattern));
    } else if (eventSegments(pattern) !== undefined) {
      // Only well-formed event names go in, so a set hit needs no check of the event name.
      exactNames.add(pattern);
    }
  }
  const compiled = [...wildcardPatterns.values()];
  return (eventName) => {
    if (exactNames.has(eventName)) return true;
    if (compiled.length === 0) return false;
    const segments = eventSegments(eventName);
    return segments !== undefined && compiled.some((pattern) => matchesSegments(pattern, segments));
  };
}

/** Whether one subscription selects an event; false for a malformed pattern or event name. */
export function matchesEvent(pattern: string, eventName: string): boolean {
  return compilePatterns([pattern])(eventName);
}

/** One delivery per endpoint per event: true when any pattern matches. */
export function matchesAnyPattern(patterns: readonly string[], eventName: string): boolean {
  return compilePatterns(patterns)(eventName);
}

/** A pattern that can never match the catalog is refused on save (422). */
export function matchesSomeEvent(pattern: string, catalog: readonly string[]): boolean {
  const matches = compilePatterns([pattern]);
  return catalog.some((eventName) => matches(eventName));
}
