/**
 * `npm start`: the whole service on this machine. Environment: PORT (default 3000), DATA_DIR
 * (default .data), FSM_SEED (seed file; a demo workspace when unset), FSM_DYNAMODB_ENDPOINT (a
 * DynamoDB to use instead of starting DynamoDB Local). Ctrl-C stops cleanly.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StartUpGaveUpError } from '../shared/aws/start-up-retry.ts';
import { config } from '../shared/config.ts';
import { startLocalStack } from '../shared/local-stack/local-stack.ts';
import { PrerequisiteError } from '../shared/local-stack/prerequisites.ts';
import { fileMailer, setMailer } from '../shared/mail/mailer.ts';
import { reportMemoryOnSignal } from '../shared/observability/memory-report.ts';
import { summarizeMetricsFile } from '../shared/observability/metrics-summary.ts';
import { fileSmsSender, setSmsSender } from '../shared/sms/sms-sender.ts';

const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DATA_DIR ?? '.data';
const seedFile = process.env.FSM_SEED || undefined;
const started = Date.now();

/** The node one-liner of the token command: the access token, or the answer on stderr and exit 1. */
const tokenOrError =
  `'const a=require("fs").readFileSync(0,"utf8");let t;try{t=JSON.parse(a).access_token}catch{}` +
  `if(!t){console.error("no token:",a||"no answer");process.exit(1)}console.log(t)'`;

try {
  const stack = await startLocalStack({
    port,
    dataDir,
    seedFile,
    progress: (step) => console.log(`fsm: ${step}…`),
  });
  // Before the ready line, so a harness may signal as soon as it reads it: with --expose-gc
  // (bench:event-stream) SIGUSR2 collects and prints the memory; otherwise it prints what was
  // measured so far (as `npm run metrics` does).
  reportMemoryOnSignal(
    (line) => console.log(`fsm: ${line}`),
    () => void summarizeMetricsFile(join(stack.dataDir, 'metrics.jsonl')).then((text) => console.log(text)),
  );
  const { baseUrl } = stack;
  const workspace = stack.seed.workspaces[0];
  const client = workspace?.clients[0];
  const realm = workspace?.realm ?? 'shared';
  // Named as the endpoint it is: test/support and bench/ read the DynamoDB endpoint from this line.
  const dynamodb = stack.dynamodb.own
    ? `DynamoDB Local at ${stack.endpoints.dynamodb}`
    : `DynamoDB at ${stack.endpoints.dynamodb} (FSM_DYNAMODB_ENDPOINT; no DynamoDB Local started${stack.dynamodb.streams ? '' : ', no streams there'})`;
  console.log(`fsm: ${dynamodb} (table fsm); SQS/S3 emulator at ${stack.endpoints.aws}`);
  console.log(
    `fsm: ready at ${baseUrl} in ${((Date.now() - started) / 1000).toFixed(1)} s (data in ${stack.dataDir})`,
  );
  console.log(`  API reference: ${baseUrl}/api/v2/docs`);
  console.log(`  OpenAPI:   ${baseUrl}/api/v2/openapi.json`);
  console.log(
    `  Mail:      ${stack.mailDir} (${await mailCount(stack.mailDir)} messages; new ones are listed below)`,
  );
  console.log(`  Discovery: ${baseUrl}/realms/${realm}/.well-known/openid-configuration`);
  const { adminClient } = stack;
  console.log(
    `  Admin plane: client ${adminClient.clientId} / ${adminClient.clientSecret} (realm ${adminClient.realm})`,
  );
  // Said at start: a receiver on this machine is refused unless this is on, and that is the
  // first thing a developer trying webhooks runs into.
  console.log(
    config().webhooks.allowLocal
      ? '  Webhooks:  local delivery on (FSM_WEBHOOK_ALLOW_LOCAL=true): http:// and loopback receivers are allowed'
      : '  Webhooks:  local delivery off: https to public addresses only; FSM_WEBHOOK_ALLOW_LOCAL=true allows a receiver on this machine',
  );
  if (stack.usedDemoSeed && workspace && client) {
    const user = workspace.users[0];
    console.log(`  Demo workspace "${workspace.name}" (realm ${realm}):`);
    console.log(
      `    API client: ${client.client_id} / ${client.client_secret} (roles ${client.roles.join(', ')})`,
    );
    if (user)
      console.log(`    User:       ${user.email} / ${user.password} (roles ${user.roles.join(', ')})`);
  }
  if (client) {
    console.log('  Try it:');
    // As README.md's: a failed token request exits 1 and shows the identity provider's answer.
    console.log(
      `    TOKEN=$(curl -sS -d grant_type=client_credentials -d client_id=${client.client_id} -d client_secret=${stack.usedDemoSeed ? client.client_secret : '<secret>'} ` +
        `${baseUrl}/realms/${realm}/protocol/openid-connect/token | node -e ${tokenOrError})`,
    );
    console.log(`    curl -sS --fail-with-body -H "Authorization: Bearer $TOKEN" ${baseUrl}/api/v2/areas`);
  }

  // Every message sent while running is announced, so a set-password or setup link is one click away.
  setMailer(
    fileMailer(stack.mailDir, process.env.FSM_MAIL_FROM ?? 'no-reply@fsm.local', (file, message) =>
      console.log(`fsm: mail to ${message.to} ("${message.subject}") written to ${file}`),
    ),
  );
  setSmsSender(
    fileSmsSender(stack.smsDir, (file, message) =>
      console.log(`fsm: SMS to ${message.to} written to ${file}`),
    ),
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`fsm: ${signal} received, stopping…`);
    await stack.stop();
    console.log('fsm: stopped; data kept in', stack.dataDir);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  if (error instanceof PrerequisiteError || error instanceof StartUpGaveUpError) {
    console.error(`fsm: cannot start: ${error.message}`);
  } else {
    console.error('fsm: failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
}

async function mailCount(dir: string): Promise<number> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith('.eml')).length;
  } catch {
    return 0;
  }
}
