/**
 * The CDK app: `cdk synth|deploy -c env=<dev|staging|prod>` (default dev). Settings per
 * environment live in lib/environments.ts; see docs/deploy.md.
 */
import { App } from 'aws-cdk-lib';
import { addEnvironmentStacks } from '../lib/app.ts';

const app = new App();
const envName = String(app.node.tryGetContext('env') ?? 'dev');
addEnvironmentStacks(app, envName);
app.synth();
