import { describe, expect, it } from 'vitest';
import type { ApiEvent } from './api-gateway.ts';
import { conditionalResult, matchesIfNoneMatch, preferredCoding } from './conditional-result.ts';

const event = (headers: Record<string, string>) => ({ headers }) as unknown as ApiEvent;
const document = JSON.stringify({
  paths: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`/p${i}`, {}])),
});
const answer = () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: document });

describe('conditional answers', () => {
  it('picks Brotli, then gzip, as Accept-Encoding weighs them, and nothing a q=0 refuses', () => {
    expect(preferredCoding('gzip, deflate, br')).toBe('br');
    expect(preferredCoding('br;q=0.5, gzip')).toBe('gzip');
    expect(preferredCoding('br;q=0, gzip;q=0')).toBeUndefined();
    expect(preferredCoding('*')).toBe('br');
    expect(preferredCoding('*;q=0, gzip')).toBe('gzip');
    expect(preferredCoding('identity')).toBeUndefined();
    expect(preferredCoding(undefined)).toBeUndefined();
  });

  it('compares ETags weakly, in a list or as *', () => {
    expect(matchesIfNoneMatch('W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"abc"', 'W/"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesIfNoneMatch('*', 'W/"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"abd"', 'W/"abc"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, 'W/"abc"')).toBe(false);
  });

  it('answers the same ETag compressed or not, 304 without a body for it, and small bodies plain', () => {
    const plain = conditionalResult(event({}), answer());
    const br = conditionalResult(event({ 'accept-encoding': 'br' }), answer());
    const again = conditionalResult(event({ 'if-none-match': plain.headers.etag as string }), answer());
    const small = conditionalResult(event({ 'accept-encoding': 'br' }), { ...answer(), body: '{}' });

    expect(plain.body).toBe(document);
    expect(br).toMatchObject({
      isBase64Encoded: true,
      headers: { 'content-encoding': 'br', vary: 'Accept-Encoding' },
    });
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(again).toEqual({
      statusCode: 304,
      headers: { etag: plain.headers.etag, vary: 'Accept-Encoding' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
