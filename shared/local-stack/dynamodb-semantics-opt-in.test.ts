/**
 * The local stack's switch for the semantics proxy: off unless asked for, and a misspelt value
 * stops the start instead of quietly running without DynamoDB's semantics.
 */
import { describe, expect, it } from 'vitest';
import { semanticsProxyIfAsked } from './dynamodb-semantics-opt-in.ts';

// Nothing is sent to it here: the proxy only connects to its target when a request comes.
const target = 'http://127.0.0.1:9';

describe('Function: semanticsProxyIfAsked', () => {
  it.each([{}, { FSM_DYNAMODB_SEMANTICS: '' }, { FSM_DYNAMODB_SEMANTICS: 'local' }])(
    'starts nothing for %o',
    async (env) => {
      expect(await semanticsProxyIfAsked(target, env)).toBeUndefined();
    },
  );

  it('starts the proxy on a port of its own for FSM_DYNAMODB_SEMANTICS=dynamodb', async () => {
    const proxy = await semanticsProxyIfAsked(target, {
      FSM_DYNAMODB_SEMANTICS: 'dynamodb',
      FSM_DYNAMODB_HOLD_MS: '40',
      FSM_DYNAMODB_INDEX_LAG_MS: '300',
    });
    try {
      expect(proxy?.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(proxy?.endpoint).not.toBe(target);
    } finally {
      await proxy?.stop();
    }
  });

  it.each([
    { env: { FSM_DYNAMODB_SEMANTICS: 'dynamo' }, error: /FSM_DYNAMODB_SEMANTICS is 'dynamo'/ },
    {
      env: { FSM_DYNAMODB_SEMANTICS: 'dynamodb', FSM_DYNAMODB_HOLD_MS: 'soon' },
      error: /FSM_DYNAMODB_HOLD_MS is 'soon'/,
    },
    {
      env: { FSM_DYNAMODB_SEMANTICS: 'dynamodb', FSM_DYNAMODB_HOLD_MS: '-1' },
      error: /FSM_DYNAMODB_HOLD_MS/,
    },
    {
      env: { FSM_DYNAMODB_SEMANTICS: 'dynamodb', FSM_DYNAMODB_INDEX_LAG_MS: 'later' },
      error: /FSM_DYNAMODB_INDEX_LAG_MS is 'later'/,
    },
    {
      env: { FSM_DYNAMODB_INDEX_LAG_MS: '300' },
      error: /FSM_DYNAMODB_INDEX_LAG_MS is '300' but FSM_DYNAMODB_SEMANTICS is not 'dynamodb'/,
    },
  ])('refuses $env', async ({ env, error }) => {
    await expect(semanticsProxyIfAsked(target, env)).rejects.toThrow(error);
  });
});
