/**
 * What a bundled function needs around it to run as on Lambda with tracing Active, for the
 * tracing test and the benches: the environment Lambda sets before it loads a function, an X-Ray
 * daemon (a UDP socket handing on each segment document) and a DynamoDB answering every call
 * with one body.
 */
import { createSocket } from 'node:dgram';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What Lambda sets when it loads `functionName` from `taskRoot` with tracing Active. */
export function lambdaEnvironment(options: {
  functionName: string;
  taskRoot: string;
  daemonAddress: string;
}): Record<string, string> {
  return {
    AWS_LAMBDA_FUNCTION_NAME: options.functionName,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    LAMBDA_TASK_ROOT: options.taskRoot,
    _HANDLER: 'index.handler',
    AWS_REGION: process.env.AWS_REGION ?? 'eu-central-1',
    AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
    AWS_XRAY_DAEMON_ADDRESS: options.daemonAddress,
  };
}

/** A stand-in X-Ray daemon on 127.0.0.1: each segment document it receives, parsed. */
export async function startXrayDaemon(onDocument: (document: Record<string, unknown>) => void) {
  const socket = createSocket('udp4');
  socket.on('message', (message) => {
    // "{header}\n{document}", the daemon's wire format.
    const [, body] = message.toString('utf8').split('\n');
    if (body) onDocument(JSON.parse(body) as Record<string, unknown>);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    close: () => socket.close(),
  };
}

/** A DynamoDB endpoint on 127.0.0.1 that answers every call 200 with `body`. */
export async function startFakeDynamoDb(body: string) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'fake' });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}
