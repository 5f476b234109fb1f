/**
 * A session with a target: the embedded reference server or a target file, checked to answer, with
 * the run's sandbox folder created under the fixture's sandbox parent and removed when the session
 * closes (on SIGINT/SIGTERM too: cli/interrupt.ts).
 */
import { randomBytes } from 'node:crypto';
import { SetupError, problemOf } from '../harness/api.ts';
import { refusesAccess } from '../harness/checks.ts';
import { createFolder, removeFolder, sandboxName } from '../harness/sandbox.ts';
import { TargetError, loadTargetFile, unreachableReason } from '../harness/target.ts';
import { Transport } from '../harness/transport.ts';
import type { RefusalStyle } from '../server/app.ts';
import type { FaultName } from '../server/faults.ts';
import type { VariationName } from '../server/variations.ts';
import type { Target } from '../schemas/target.ts';
import { UsageError } from './args.ts';
import type { RunInterrupt } from './interrupt.ts';

/** How to reach the target. */
export interface SessionOptions {
  /** A target file; without it the embedded reference server is started. */
  targetFile?: string;
  /** Overrides the target's base URL. */
  baseUrl?: string;
  /** Planted faults and refusal style of the embedded server. */
  faults?: readonly FaultName[];
  /** Harmless variations of the embedded server (server/variations.ts). */
  variations?: readonly VariationName[];
  refusalStyle?: RefusalStyle;
  /** The embedded server's profile (server/profiles.ts). */
  profile?: string;
  /** The embedded server's data set: `default`, `varied:SEED` or a dataset file (server/index.ts datasetOf). */
  fixture?: string;
  /** The token the embedded server requires (default: a random one, so the target declares the feature auth). */
  authToken?: string;
  timeoutMs: number;
  concurrency: number;
  rate?: number;
  /**
   * The run's signals (cli/interrupt.ts): a signal abandons the check that the target answers. The sandbox,
   * once asked for, is waited for, so that it can be removed.
   */
  interrupt?: Pick<RunInterrupt, 'onStop' | 'stopped'>;
  /** How often a throttled request is repeated; absent: the transport's default. */
  maxRetries?: number;
  /** The most one request waits for Retry-After in all, in milliseconds; absent: the transport's default. */
  maxRetryWaitMs?: number;
  /** Answers over this many bytes are cut and not judged; absent: the transport's default. */
  maxBodyBytes?: number;
  /** The sandbox folder's name (default: a fresh one), known to the caller before the folder exists. */
  sandboxName?: string;
}

/**
 * A signal came while the session checked that the target answers, before the sandbox was asked for: the
 * check is abandoned and nothing is made on the target. Carries the target, for the run's reports.
 */
export class SessionStopped extends Error {
  override name = 'SessionStopped';
  constructor(readonly target: Target) {
    super('stopped before the sandbox was made: nothing is left on the target');
  }
}

/** Why a session could not be opened: the exit code and a one-line message. */
export class SessionError extends Error {
  override name = 'SessionError';
  constructor(
    message: string,
    readonly exitCode: 2 | 3,
  ) {
    super(message);
  }
}

/** An open session: the target, its transport and the run's sandbox folder. */
export interface Session {
  target: Target;
  transport: Transport;
  sandboxFolderId: number;
  /** Removes the sandbox (reporting a failure on stderr) and stops the embedded server; false when the sandbox stayed. */
  close(): Promise<boolean>;
  /** Stops the session without removing the sandbox: for an embedded server whose state ends with it. */
  discard(): Promise<void>;
}

/** What a run says when the target refuses it the sandbox for want of credentials or rights. */
const ACCESS_HINT =
  "the target refused the run's credentials or rights: check `auth` in the target file, and that its user may create folders under fixture.sandboxParentFolderId";

/** Resolves the target of a session without sending anything (for --dry-run too). */
export function loadTarget(options: Pick<SessionOptions, 'targetFile' | 'baseUrl'>): Target | undefined {
  if (options.baseUrl !== undefined && !/^https?:\/\/[^/]/.test(options.baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL, got "${options.baseUrl}"`);
  if (!options.targetFile) return undefined;
  let target: Target;
  try {
    target = loadTargetFile(options.targetFile);
  } catch (err) {
    if (err instanceof TargetError) throw new UsageError(err.message);
    throw err;
  }
  return options.baseUrl ? { ...target, baseUrl: options.baseUrl.replace(/\/+$/, '') } : target;
}

/** Opens a session: starts or loads the target, checks it answers, creates the sandbox. */
export async function openSession(options: SessionOptions): Promise<Session> {
  let target = loadTarget(options);
  let stopServer = async (): Promise<void> => {};
  if (!target) {
    const { startReferenceServer } = await import('../server/index.ts');
    let server;
    try {
      server = await startReferenceServer({
        port: 0,
        faults: options.faults ?? [],
        variations: options.variations ?? [],
        ...(options.profile ? { profile: options.profile } : {}),
        ...(options.fixture ? { fixture: options.fixture } : {}),
        authToken: options.authToken ?? randomBytes(16).toString('hex'),
        ...(options.refusalStyle ? { refusalStyle: options.refusalStyle } : {}),
      });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    target = options.baseUrl ? { ...server.target, baseUrl: options.baseUrl.replace(/\/+$/, '') } : server.target;
    stopServer = () => server.close();
  }
  const transport = new Transport(target, {
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    ...(options.rate ? { rate: options.rate } : {}),
    maxRetries: options.maxRetries,
    maxRetryWaitMs: options.maxRetryWaitMs,
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
  });
  const abandon = async () => {
    await transport.close();
    await stopServer();
  };
  const forget = options.interrupt?.onStop(() => transport.interrupt());
  const unreachable = await unreachableReason(transport);
  forget?.();
  if (options.interrupt?.stopped) {
    await abandon();
    throw new SessionStopped(target);
  }
  if (unreachable) {
    await abandon();
    throw new SessionError(`target unreachable: ${unreachable}`, 3);
  }
  let sandboxFolderId: number;
  const name = options.sandboxName ?? sandboxName();
  try {
    sandboxFolderId = (await createFolder((spec) => transport.send(spec), target.fixture.sandboxParentFolderId, name)).id;
  } catch (err) {
    await abandon();
    const exchange = err instanceof SetupError ? err.exchange : undefined;
    // The step's own message speaks of a test; here no test has started.
    const why = exchange ? `folder.create failed: ${problemOf(exchange) ?? 'the answer has no folder id'}` : (err as Error).message;
    const refused = exchange && refusesAccess(exchange) ? `; ${ACCESS_HINT}` : '';
    throw new SessionError(
      `cannot create the sandbox ${name} under fixture.sandboxParentFolderId ${target.fixture.sandboxParentFolderId}: ${why}${refused}`,
      2,
    );
  }
  let closed = false;
  return {
    target,
    transport,
    sandboxFolderId,
    async close() {
      if (closed) return true;
      closed = true;
      // An embedded server with planted faults or variations (prove) may fail the removal (a variation may refuse to delete a
      // folder that holds what the run left), and nothing is left over then: its state stops with it. Anywhere else a sandbox
      // that stays is worth a word.
      const quiet = !options.targetFile && (options.faults?.length ?? 0) + (options.variations?.length ?? 0) > 0;
      const removed = await removeFolder(transport, sandboxFolderId);
      if (!removed && !quiet) {
        const clean = options.targetFile ? `cms-conformance clean --target ${options.targetFile} --name ${name}` : 'cms-conformance clean';
        console.error(`cms-conformance: could not remove the sandbox ${name} (folder ${sandboxFolderId}); \`${clean}\` removes it`);
      }
      await abandon();
      return removed;
    },
    async discard() {
      closed = true;
      await abandon();
    },
  };
}
