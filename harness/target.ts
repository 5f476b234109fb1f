/** Reading a target file and checking that the target answers at all. */
import { readFileSync } from 'node:fs';
import { fileProblem } from '../schemas/files.ts';
import type { Feature, Target, TargetFixture } from '../schemas/target.ts';
import type { Transport } from './transport.ts';

/** A target file that cannot be used: exit 2 with this message. */
export class TargetError extends Error {
  override name = 'TargetError';
}

/** Checks a parsed target file against its schema and what its features need; returns it typed. The first problem is named. */
export function parseTarget(data: unknown, source: string): Target {
  const problem = fileProblem('target', data);
  if (problem) throw new TargetError(`${source}: ${problem}`);
  // The file may leave out auth and features; the schema has checked every member it has.
  const t = data as Omit<Target, 'auth' | 'features'> & { auth?: Partial<Target['auth']>; features?: Feature[] };
  const fixture: Partial<TargetFixture> = t.fixture;
  const features = t.features ?? [];
  // Which fixture ids a feature needs is about the run, not the file's shape: it stays out of the schema.
  const needs: [Feature, (keyof TargetFixture)[]][] = [
    ['multichannelling', ['channelNodeId', 'channelRootFolderId']],
    ['pages', ['pagesFolderId']],
    ['templates', ['templatesFolderId']],
  ];
  for (const [feature, keys] of needs) {
    const missing = features.includes(feature) ? keys.find((k) => fixture[k] === undefined) : undefined;
    if (missing) throw new TargetError(`${source}: /fixture/${missing} is missing: feature "${feature}" needs it`);
  }
  // A channel that is the master itself gives every multichannelling test a view it cannot judge: they would all fail.
  if (features.includes('multichannelling') && fixture.channelNodeId === fixture.masterNodeId)
    throw new TargetError(
      `${source}: /fixture/channelNodeId ${fixture.channelNodeId} is the master node: feature "multichannelling" needs a channel of it`,
    );
  // Declarations about a folder or file the fixture does not name would be checked against nothing: the tests would pass
  // over them unseen.
  if (fixture.translationPageIds && fixture.pagesFolderId === undefined)
    throw new TargetError(`${source}: /fixture/translationPageIds names pages of /fixture/pagesFolderId, which is missing`);
  if (fixture.usedFileUsers && fixture.usedFileId === undefined)
    throw new TargetError(`${source}: /fixture/usedFileUsers names the users of /fixture/usedFileId, which is missing`);
  return {
    baseUrl: t.baseUrl.replace(/\/+$/, ''),
    auth: { query: { ...(t.auth?.query ?? {}) }, headers: { ...(t.auth?.headers ?? {}) } },
    features: [...features],
    fixture: { ...t.fixture },
  };
}

/** Reads and checks a target file. */
export function loadTargetFile(path: string): Target {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TargetError(`cannot read target file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let data: unknown;
  try {
    // A byte order mark is no part of JSON, but editors write one and JSON readers accept it.
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new TargetError(`target file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  return parseTarget(data, path);
}

/** Sends one harmless request; returns why the target is unreachable, or undefined when it answered at all. */
export async function unreachableReason(transport: Transport): Promise<string | undefined> {
  const exchange = await transport.send({ method: 'GET', path: `/folder/load/${transport.target.fixture.masterRootFolderId}` });
  if (!exchange.error) return undefined;
  return `${transport.target.baseUrl} did not answer (${exchange.error.code}: ${exchange.error.message})`;
}
