/**
 * The local stack's switch for the DynamoDB-semantics proxy (dynamodb-semantics-proxy.ts):
 * off by default, since it slows every transaction by its hold and makes concurrent writes fail
 * as they do on DynamoDB. `FSM_DYNAMODB_SEMANTICS=dynamodb` turns it on, `FSM_DYNAMODB_HOLD_MS`
 * sets the hold (default 15 ms), `FSM_DYNAMODB_INDEX_LAG_MS` how long index reads lag the table
 * (default 0: no lag). Only the service's own clients go through it; the stream pollers and the
 * start-up's table creation talk to DynamoDB directly.
 */
import { type DynamoDbSemanticsProxy, startDynamoDbSemanticsProxy } from './dynamodb-semantics-proxy.ts';

/** The proxy in front of `target` when the environment asks for it, else undefined. */
export async function semanticsProxyIfAsked(
  target: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DynamoDbSemanticsProxy | undefined> {
  const semantics = env.FSM_DYNAMODB_SEMANTICS;
  const indexLagMs = millisecondsOrThrow(env, 'FSM_DYNAMODB_INDEX_LAG_MS', 0);
  if (semantics === undefined || semantics === '' || semantics === 'local') {
    // A lag asked for without the proxy would silently not be there.
    if (indexLagMs > 0) {
      throw new Error(
        `FSM_DYNAMODB_INDEX_LAG_MS is '${env.FSM_DYNAMODB_INDEX_LAG_MS}' but FSM_DYNAMODB_SEMANTICS is not 'dynamodb'; the lag is part of the semantics proxy`,
      );
    }
    return undefined;
  }
  // A typo must not silently run the tests without the semantics they were meant to run under.
  if (semantics !== 'dynamodb') {
    throw new Error(
      `FSM_DYNAMODB_SEMANTICS is '${semantics}'; it takes 'dynamodb' (or 'local', the default)`,
    );
  }
  const holdMs = millisecondsOrThrow(env, 'FSM_DYNAMODB_HOLD_MS', 15);
  return startDynamoDbSemanticsProxy({
    target,
    holdMs,
    indexLagMs,
    ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
  });
}

function millisecondsOrThrow(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] || fallback);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`${name} is '${env[name]}'; it takes a number of ms, 0 or more`);
  }
  return value;
}
