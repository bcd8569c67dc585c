/** Offline sync: parse, call the domain, respond. */

import { pullChanges } from '../../shared/domain/sync/pull.service.ts';
import { pushMutations } from '../../shared/domain/sync/push.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { syncPushCrashHook } from '../../shared/local-stack/test-hooks.ts';
import { syncRoutes } from '../../shared/routes/groups/sync.routes.ts';
import { mutationPort } from './mutation-port.ts';

// The integration tests' crash hook (FSM_TEST_HOOKS=true on the test stack only).
const testHooks = process.env.FSM_TEST_HOOKS === 'true' ? { crashHook: syncPushCrashHook } : {};

export const handler = createGroupHandler(syncRoutes, {
  'sync.pull': async ({ ctx, body }) => ({ body: await pullChanges(ctx, body) }),
  'sync.push': async ({ ctx, body, event }) => ({
    body: await pushMutations(
      ctx,
      body,
      mutationPort(event, ctx.workspaceId, ctx.principal.id.toLowerCase()),
      testHooks,
    ),
  }),
});
