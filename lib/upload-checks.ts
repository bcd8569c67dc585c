/**
 * Tenant logo and favicon uploads on AWS: what the functions that handle them may do in the
 * upload bucket, and the eager check. Browsers POST files straight to the bucket under
 * `pending/tenants/`; the bucket sends "Object Created" events to EventBridge, and a rule hands
 * those under that prefix to a Lambda that checks and applies the file
 * (functions/tenant-upload-check, shared/domain/tenant/upload-intent.service.ts). The status
 * read runs the same check when the event has not (yet), so a lost event costs only latency.
 *
 * The rule lives in the service stack and only reads the bucket's name, so the data stack
 * never depends on the service stack (an S3 notification to a Lambda of the service stack
 * would make each depend on the other).
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { Construct } from 'constructs';
import { functionEntry } from './bundling.ts';
import type { EnvironmentSettings } from './environments.ts';
import { ServiceFunction } from './service-function.ts';
import { tableActions } from './table-access.ts';

/** Where browsers put files and where checked files are kept (upload-intent.service.ts `uploadKeys`). */
export const uploadKeyPrefixes = { pending: 'pending/tenants/', assets: 'tenants/' } as const;

/**
 * What a function that signs upload forms, checks uploads and serves them needs: PutObject (a
 * presigned POST acts with the signer's rights), GetObject (the check, and the presigned read
 * URLs), DeleteObject (rejected, replaced and removed files). Only under the two prefixes.
 */
export const uploadObjectActions = ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'] as const;

export function allowUploads(fn: ServiceFunction, bucket: IBucket): void {
  fn.function.addEnvironment('FSM_UPLOAD_BUCKET', bucket.bucketName);
  allowUploadObjects(fn.role, bucket);
}

function allowUploadObjects(role: IRole, bucket: IBucket): void {
  const resources = [
    bucket.arnForObjects(`${uploadKeyPrefixes.pending}*`),
    bucket.arnForObjects(`${uploadKeyPrefixes.assets}*`),
  ];
  role.addToPrincipalPolicy(new PolicyStatement({ actions: [...uploadObjectActions], resources }));
  // cdk-nag names each wildcard resource as it appears in the template, where the bucket's ARN
  // is a cross-stack reference that exists only once references are resolved: acknowledged in
  // the tree validation, which runs after that and before the validation plugins (cdk-nag).
  role.node.addValidation({
    validate: () => {
      for (const resource of resources) {
        const shown = flattenCfnReference(Stack.of(role).resolve(resource));
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${shown}]`,
          reason:
            'Upload keys are chosen per file at run time (<prefix><workspace>/<kind>/<file id>), so object ' +
            'rights are granted by prefix: only pending/tenants/* and tenants/* of the upload bucket, and ' +
            'only GetObject, PutObject and DeleteObject.',
        });
      }
      return [];
    },
  });
}

export interface UploadChecksProps {
  bucket: IBucket;
  table: ITableV2;
  settings: EnvironmentSettings;
  environment: Record<string, string>;
}

export class UploadChecks extends Construct {
  readonly checker: ServiceFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: UploadChecksProps) {
    super(scope, id);
    const { bucket, table, settings } = props;
    this.checker = new ServiceFunction(this, 'Checker', {
      entry: functionEntry('tenant-upload-check'),
      description: 'Checks a tenant logo or favicon as it lands in the upload bucket, and applies it',
      environment: { ...props.environment, FSM_TABLE_NAME: table.tableName },
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      removalPolicy: settings.removalPolicy,
      memorySize: settings.lambdaMemoryMb,
      timeout: Duration.seconds(30),
    });
    // The intent (Get, conditional Put) and the tenant write (a transaction of Puts and counters).
    this.checker.allowTable(table, tableActions['read-write']);
    allowUploads(this.checker, bucket);

    this.rule = new Rule(this, 'ObjectCreated', {
      description: 'A file landed under pending/tenants/ of the upload bucket: check and apply it',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: {
          bucket: { name: [bucket.bucketName] },
          object: { key: [{ prefix: uploadKeyPrefixes.pending }] },
        },
      },
      targets: [
        new LambdaFunction(this.checker.function, { retryAttempts: 4, maxEventAge: Duration.hours(1) }),
      ],
    });
  }
}
