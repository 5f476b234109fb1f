/** Reading a target file and checking that the target answers at all. */
import { readFileSync } from 'node:fs';
import { FEATURES, type Feature, type Target } from '../schemas/target.ts';
import type { Transport } from './transport.ts';

/** A target file that cannot be used: exit 2 with this message. */
export class TargetError extends Error {
  override name = 'TargetError';
}

function isRecordOfStrings(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/** Checks the shape of a parsed target file and returns it typed; every problem is named. */
export function parseTarget(data: unknown, source: string): Target {
  const problems: string[] = [];
  const t = data as Partial<Target> & Record<string, unknown>;
  if (typeof t !== 'object' || t === null || Array.isArray(t)) throw new TargetError(`${source}: a target file is a JSON object`);
  if (typeof t.baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(t.baseUrl)) problems.push('"baseUrl" must be an http(s) URL');
  const auth = (t.auth ?? { query: {}, headers: {} }) as Partial<Target['auth']>;
  if (!isRecordOfStrings(auth.query ?? {}) || !isRecordOfStrings(auth.headers ?? {})) problems.push('"auth.query" and "auth.headers" must map names to strings');
  const features = t.features ?? [];
  if (!Array.isArray(features)) problems.push('"features" must be an array');
  else for (const f of features) if (!FEATURES.includes(f as Feature)) problems.push(`unknown feature "${String(f)}" (known: ${FEATURES.join(', ')})`);
  const fixture = (t.fixture ?? {}) as Record<string, unknown>;
  for (const key of ['masterNodeId', 'masterRootFolderId', 'sandboxParentFolderId']) {
    if (!Number.isInteger(fixture[key])) problems.push(`"fixture.${key}" must be an integer id`);
  }
  for (const [key, value] of Object.entries(fixture)) if (value !== undefined && !Number.isInteger(value)) problems.push(`"fixture.${key}" must be an integer id`);
  const needs: [Feature, string[]][] = [
    ['multichannelling', ['channelNodeId', 'channelRootFolderId']],
    ['pages', ['pagesFolderId']],
    ['templates', ['templatesFolderId']],
  ];
  for (const [feature, keys] of needs) {
    if (Array.isArray(features) && features.includes(feature)) for (const k of keys) if (!Number.isInteger(fixture[k])) problems.push(`feature "${feature}" needs "fixture.${k}"`);
  }
  if (problems.length) throw new TargetError(`${source}: ${[...new Set(problems)].join('; ')}`);
  return {
    baseUrl: (t.baseUrl as string).replace(/\/+$/, ''),
    auth: { query: { ...(auth.query ?? {}) }, headers: { ...(auth.headers ?? {}) } },
    features: [...(features as Feature[])],
    fixture: fixture as unknown as Target['fixture'],
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
    data = JSON.parse(text);
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
