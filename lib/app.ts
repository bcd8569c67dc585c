/**
 * The stacks of one environment, and the checks every synth runs. bin/app.ts calls this for
 * the environment named by `-c env=<name>`; the infra tests call it directly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type AppProps, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { repoRoot } from './bundling.ts';
import { DataStack } from './data-stack.ts';
import { type EnvironmentName, environmentSettingsOrThrow } from './environments.ts';
import { MonitoringStack } from './monitoring-stack.ts';
import { ServiceStack } from './service-stack.ts';

/**
 * An App with cdk.json's context (feature flags), as the CLI would build it. bin/app.ts does
 * not need this (the CLI passes the context); tests and scripts that synth in-process do.
 */
export function createApp(props: AppProps = {}): App {
  const cdkJson = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return new App({ ...props, context: { ...cdkJson.context, ...props.context } });
}

export interface EnvironmentStacks {
  envName: EnvironmentName;
  data: DataStack;
  service: ServiceStack;
  monitoring: MonitoringStack;
}

export interface AddEnvironmentOptions {
  /** Entry of the webhook delivery Lambda (default functions/webhook-delivery/handler.ts). */
  webhookDeliveryEntry?: string;
  /** Run cdk-nag's AwsSolutions pack at synth (default true). */
  nag?: boolean;
}

export function addEnvironmentStacks(
  app: App,
  name: string,
  options: AddEnvironmentOptions = {},
): EnvironmentStacks {
  const indexes = app.node.tryGetContext('tableIndexes');
  const settings = {
    ...environmentSettingsOrThrow(name),
    ...(indexes === undefined ? {} : { tableIndexCount: Number(indexes) }),
  };
  const envName = name as EnvironmentName;
  const env = { region: settings.region, ...(settings.account ? { account: settings.account } : {}) };

  const data = new DataStack(app, `fsm-${envName}-data`, {
    env,
    envName,
    settings,
    description: `Field service (${envName}): table, upload bucket, queues, signing key`,
    terminationProtection: envName === 'prod',
  });
  const service = new ServiceStack(app, `fsm-${envName}-service`, {
    env,
    envName,
    settings,
    data,
    description: `Field service (${envName}): API, event functions, container, CloudFront, alarms`,
    ...(options.webhookDeliveryEntry ? { webhookDeliveryEntry: options.webhookDeliveryEntry } : {}),
  });
  service.addStackDependency(data);
  const monitoring = new MonitoringStack(app, `fsm-${envName}-monitoring`, {
    env,
    envName,
    settings,
    topic: service.observability.topic,
    description: `Field service (${envName}): service level objectives and their burn-rate alarms`,
  });
  monitoring.addStackDependency(service);

  for (const stack of [data, service, monitoring]) {
    Tags.of(stack).add('app', 'field-service');
    Tags.of(stack).add('environment', envName);
  }
  if (options.nag ?? true) addNagChecks(app);
  return { envName, data, service, monitoring };
}

const appsWithNag = new WeakSet<App>();

/**
 * cdk-nag's AwsSolutions pack, once per app. cdk-nag 3 is a policy validation plugin: any
 * unacknowledged finding, error or warning, fails the synth. Acknowledgements sit next to the
 * resource they concern, each with its reason (`Validations.of(x).acknowledge`).
 */
export function addNagChecks(app: App): void {
  if (appsWithNag.has(app)) return;
  appsWithNag.add(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
