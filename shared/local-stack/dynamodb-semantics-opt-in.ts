/**
 * The local stack's switch for the DynamoDB-semantics proxy (dynamodb-semantics-proxy.ts):
 * off by default, since it slows every transaction by its hold and makes concurrent writes fail
 * as they do on DynamoDB. `FSM_DYNAMODB_SEMANTICS=dynamodb` turns it on, `FSM_DYNAMODB_HOLD_MS`
 * sets the hold (default 15 ms). Only the service's own clients go through it; the stream
 * pollers and the start-up's table creation talk to DynamoDB Local directly.
 */
import { type DynamoDbSemanticsProxy, startDynamoDbSemanticsProxy } from './dynamodb-semantics-proxy.ts';

/** The proxy in front of `target` when the environment asks for it, else undefined. */
export async function semanticsProxyIfAsked(
  target: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DynamoDbSemanticsProxy | undefined> {
  const semantics = env.FSM_DYNAMODB_SEMANTICS;
  if (semantics === undefined || semantics === '' || semantics === 'local') return undefined;
  // A typo must not silently run the tests without the semantics they were meant to run under.
  if (semantics !== 'dynamodb') {
    throw new Error(
      `FSM_DYNAMODB_SEMANTICS is '${semantics}'; it takes 'dynamodb' (or 'local', the default)`,
    );
  }
  const holdMs = Number(env.FSM_DYNAMODB_HOLD_MS || 15);
  if (!Number.isFinite(holdMs) || holdMs < 0) {
    throw new Error(
      `FSM_DYNAMODB_HOLD_MS is '${env.FSM_DYNAMODB_HOLD_MS}'; it takes a number of ms, 0 or more`,
    );
  }
  return startDynamoDbSemanticsProxy({ target, holdMs });
}
