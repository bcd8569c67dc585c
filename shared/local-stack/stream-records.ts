/**
 * A DynamoDB Streams record as Lambda delivers it to a handler: plain JSON, binary as base64,
 * the creation time in epoch seconds, the configured region. What the stream poller hands to
 * the outbox consumers, so they see locally what they see on AWS.
 */
import type {
  AttributeValue as SdkAttributeValue,
  _Record as SdkRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';

/** The record as Lambda delivers it: plain JSON, binary as base64, the creation time in epoch seconds. */
export function toLambdaRecord(
  record: SdkRecord,
  source: { region: string; streamArn: string },
): DynamoDBRecord {
  const stream = record.dynamodb;
  const created = stream?.ApproximateCreationDateTime;
  const lambdaRecord: DynamoDBRecord = {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    // DynamoDB Local reports the region as "ddblocal"; handlers should see the configured one.
    awsRegion: source.region,
    dynamodb: {
      ...(created === undefined ? {} : { ApproximateCreationDateTime: Math.floor(created.getTime() / 1000) }),
      ...(stream?.Keys === undefined ? {} : { Keys: toLambdaImage(stream.Keys) }),
      ...(stream?.NewImage === undefined ? {} : { NewImage: toLambdaImage(stream.NewImage) }),
      ...(stream?.OldImage === undefined ? {} : { OldImage: toLambdaImage(stream.OldImage) }),
      SequenceNumber: stream?.SequenceNumber,
      SizeBytes: stream?.SizeBytes,
      StreamViewType: stream?.StreamViewType,
    },
    eventSourceARN: source.streamArn,
  };
  if (record.userIdentity !== undefined) {
    lambdaRecord.userIdentity = {
      type: record.userIdentity.Type,
      principalId: record.userIdentity.PrincipalId,
    };
  }
  return lambdaRecord;
}

export function toLambdaImage(image: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  const result: Record<string, AttributeValue> = {};
  for (const [name, value] of Object.entries(image)) result[name] = toLambdaValue(value);
  return result;
}

function toLambdaValue(value: SdkAttributeValue): AttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  // DynamoDB Local's stream renders an empty map (e.g. `previous_attributes: {}`) as a bare `{}`,
  // which the SDK hands on without a type key; AWS and Lambda say `{ M: {} }`.
  if (Object.keys(value).length === 0) return { M: {} };
  throw new Error(`Unsupported attribute value in a stream record: ${JSON.stringify(value)}`);
}
