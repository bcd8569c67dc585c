/**
 * Per-call work of the AWS SDK that nothing here reads, removed from a client's stack: the
 * user-agent string (built per request), X-Ray's recursion-detection header (no tracing) and
 * the logger hook. The last one is the dearest: with no logger configured the SDK still walks
 * each call's input and output against the operation's schema to mask sensitive fields for a
 * log line nobody writes — for a stream poller's GetRecords that is every record. Measured with
 * a CPU profile of 3,000 POSTs through the local stack: about a tenth of the service's CPU.
 *
 * On Lambda Powertools' Tracer adds `addPowertoolsToUserAgent` after the user-agent middleware:
 * it goes too, and so this runs after the client is traced; anchored to a middleware no longer
 * there, it would make every call of the client fail when its stack is resolved.
 */
const perCallExtras = [
  'getUserAgentMiddleware',
  'addPowertoolsToUserAgent',
  'recursionDetectionMiddleware',
  'loggerMiddleware',
];

export function withoutPerCallExtras<C extends { middlewareStack: { remove(name: string): boolean } }>(
  client: C,
): C {
  for (const name of perCallExtras) client.middlewareStack.remove(name);
  return client;
}
