/**
 * Request headers read from `rawHeaders` without building `req.headers` or `req.headersDistinct`:
 * Node caches those objects on the request for as long as it lives, and an event-stream request
 * lives as long as its connection (thousands of them per process).
 */
import type { IncomingMessage } from 'node:http';

/** Every value of the header `name` (lower case), in the order received. */
export function headerValues(req: Pick<IncomingMessage, 'rawHeaders'>, name: string): string[] {
  const values: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === name) values.push(raw[i + 1] as string);
  }
  return values;
}

/** The first value of the header `name` (lower case), if any. */
export function headerValue(req: Pick<IncomingMessage, 'rawHeaders'>, name: string): string | undefined {
  return headerValues(req, name)[0];
}
