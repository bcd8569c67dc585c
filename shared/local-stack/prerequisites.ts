/**
 * DynamoDB Local is a Java program. Without a suitable Java runtime it dies with a cryptic
 * spawn error or a class-version stack trace; checking first lets `npm start` and the tests say
 * what to install instead.
 */
import { spawn } from 'node:child_process';

/** A missing tool on the developer's machine; the message tells what to install. */
export class PrerequisiteError extends Error {
  override name = 'PrerequisiteError';
}

const MINIMUM_JAVA = 17;
const INSTALL_HINT =
  `DynamoDB Local needs a Java ${MINIMUM_JAVA}+ runtime. Install it with: ` +
  'sudo apt-get install -y openjdk-17-jre-headless (Debian/Ubuntu) or brew install openjdk@17 (macOS)';

/** Resolves when `java` on the PATH is version 17 or newer; throws PrerequisiteError otherwise. */
export async function checkJava(): Promise<void> {
  const output = await runJavaVersion();
  if (output === null) {
    throw new PrerequisiteError(`No \`java\` found on the PATH. ${INSTALL_HINT}`);
  }
  const major = parseJavaMajor(output);
  if (major === null) {
    throw new PrerequisiteError(
      `Could not read the version from \`java -version\` (${firstLine(output)}). ${INSTALL_HINT}`,
    );
  }
  if (major < MINIMUM_JAVA) {
    throw new PrerequisiteError(`Found Java ${major} (${firstLine(output)}). ${INSTALL_HINT}`);
  }
}

/** The major version from `java -version` output: `"17.0.15"` is 17, the old `"1.8.0_301"` scheme is 8. */
export function parseJavaMajor(output: string): number | null {
  const match = /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(output);
  if (!match) return null;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

/** stdout + stderr of `java -version` (it prints to stderr), or null when java cannot be run. */
function runJavaVersion(): Promise<string | null> {
  return new Promise((resolve) => {
    let output = '';
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('java', ['-version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch {
      resolve(null);
      return;
    }
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code === 0 ? output : output || null));
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
