/**
 * What writes cost in DynamoDB write units, as the local stack reports them per request
 * (`x-dynamodb-capacity`, FSM_REPORT_DYNAMODB_CALLS): a series of requests sent one at a time,
 * their mean and largest write units and the calls of the last. Issue 34 compares them before
 * and after the shared counters left the records' transactions (shared/data/tally.ts).
 */
export interface WriteFigures {
  requests: number;
  meanWriteUnits: number;
  maxWriteUnits: number;
  calls: string;
}

export interface WriteRequest {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/** Sends the requests one after another; `next` may build a request from the previous answer. */
export async function writeUnitsOf(
  baseUrl: string,
  bearer: string,
  requests: ReadonlyArray<WriteRequest | ((previous: unknown) => WriteRequest)>,
): Promise<WriteFigures & { answers: unknown[] }> {
  const units: number[] = [];
  const answers: unknown[] = [];
  let calls = '?';
  let previous: unknown;
  for (const item of requests) {
    const request = typeof item === 'function' ? item(previous) : item;
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await response.text();
    if (response.status >= 300)
      throw new Error(`${request.method} ${request.path}: ${response.status} ${text}`);
    previous = text ? JSON.parse(text) : undefined;
    answers.push(previous);
    units.push(
      Number(/write=([\d.]+)/.exec(response.headers.get('x-dynamodb-capacity') ?? '')?.[1] ?? Number.NaN),
    );
    calls = response.headers.get('x-dynamodb-calls') ?? '?';
  }
  return {
    requests: units.length,
    meanWriteUnits: units.reduce((a, b) => a + b, 0) / Math.max(1, units.length),
    maxWriteUnits: Math.max(...units),
    calls,
    answers,
  };
}

export function printWriteFigures(name: string, figures: WriteFigures): void {
  console.log(
    `  ${name}: ${figures.meanWriteUnits.toFixed(1)} write units per request (largest ${figures.maxWriteUnits}), ${figures.requests} requests; calls of the last: ${figures.calls}`,
  );
}
