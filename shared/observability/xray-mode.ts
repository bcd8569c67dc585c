/**
 * Imported before the X-Ray SDK (tracer.ts): outside Lambda nothing is traced (no daemon runs
 * beside the local stack or the container), so the SDK starts in manual mode there. In its
 * default automatic mode, loading it enables an async hook (cls-hooked) that costs CPU on every
 * promise of the process, traced or not.
 */
if (!process.env.AWS_LAMBDA_FUNCTION_NAME) process.env.AWS_XRAY_MANUAL_MODE ??= 'true';

export {};
