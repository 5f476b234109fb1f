/** The reference server's programmatic API: start it on a port and get its target file object. */
import type { AddressInfo } from 'node:net';
import { API_PREFIX, buildApp, type Limits, type RefusalStyle } from './app.ts';
import type { Dataset } from './dataset-format.ts';
import { loadDataset, validateDataset } from './dataset-load.ts';
import { defaultDataset } from './default-dataset.ts';
import { deepFreeze } from './json.ts';
import { faultNamesOf, type FaultName } from './faults.ts';
import { getProfile, profiles } from './profiles.ts';
import { variationNamesOf, type VariationName } from './variations.ts';
import { handlers } from './handlers/index.ts';
import { applyPace, type Pace } from './pace.ts';
import { createState, fixtureIds, type State } from './state.ts';
import { variedDataset, variedSeed } from './varied-dataset.ts';
import type { Feature, Target } from '../schemas/target.ts';

/** How to start the reference server; everything has a default. */
export interface ReferenceServerOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** `default` (the built-in fixture), `varied:SEED` (server/varied-dataset.ts), a dataset file path, or a dataset object. */
  fixture?: 'default' | string | Dataset;
  /** Planted faults to switch on, by name; a misspelt name is a type error, and an unknown one at run time an error. */
  faults?: readonly FaultName[];
  /** Harmless variations to switch on, by name (server/variations.ts); an unknown name is an error. */
  variations?: readonly VariationName[];
  /** How the server behaves where profiles differ (server/profiles.ts): `default` or `field`; explicit options win. */
  profile?: string;
  refusalStyle?: RefusalStyle;
  /** Require `sid=TOKEN` or `Authorization: Bearer TOKEN` on every request. */
  authToken?: string;
  limits?: Partial<Limits>;
  /** Log warnings and errors to stdout. */
  logger?: boolean;
  /** A delay before every answer and a number of requests served at once (server/pace.ts); none by default. */
  pace?: Pace;
}

/** A running reference server. */
export interface ReferenceServer {
  /** e.g. `http://127.0.0.1:40123/rest`. */
  baseUrl: string;
  /** The target file object describing this server. */
  target: Target;
  /** The live in-memory store (tests and benchmarks may seed it directly). */
  state: State;
  close(): Promise<void>;
}

let builtDefault: Dataset | undefined;

/**
 * The default data set, built, checked and frozen once per process: createState copies the data set it
 * is given, so every server can start from this one. Building and checking it is a large share of a
 * server's start (BENCHMARKS.md), and prove starts over a hundred servers.
 */
function sharedDefault(): Dataset {
  if (!builtDefault) {
    const dataset = defaultDataset();
    validateDataset(dataset);
    deepFreeze(dataset);
    builtDefault = dataset;
  }
  return builtDefault;
}

/** The data set a --fixture value names: `default`, `varied:SEED` or a dataset file (checked: errors name the defect). */
export function datasetOf(value: string): Dataset {
  if (value === 'default') return sharedDefault();
  const seed = variedSeed(value);
  if (seed === undefined) return loadDataset(value);
  const dataset = variedDataset(seed);
  validateDataset(dataset, `fixture ${value}`);
  return dataset;
}

/**
 * The features the reference server implements: all of them, `auth` only when a token is required; `disposable` too,
 * as its data lives in memory and a restart brings it back.
 */
const FEATURES: Feature[] = ['multichannelling', 'wastebin', 'pages', 'templates', 'sourceUrl'];

/** The host as it goes into a URL: wildcard addresses become loopback, IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The live master pages of the pages folder that the data set makes translations of another page
 * (fixture.translationPageIds): those getPages of the folder lists in the master's view.
 */
function translationPages(dataset: Dataset, folderId: number, nodeId: number): { translationPageIds?: number[] } {
  const ids = dataset.pages
    .filter((p) => p.folderId === folderId && p.nodeId === nodeId && p.masterId === undefined && !p.deleted)
    .filter((p) => dataset.pages.some((m) => m.id === p.translation?.masterPageId))
    .map((p) => p.id);
  return ids.length ? { translationPageIds: ids } : {};
}

/** Starts the reference server and resolves once it listens. */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  // Checked at run time too: JavaScript callers and casts get past the type.
  faultNamesOf(options.faults ?? []);
  variationNamesOf(options.variations ?? []);
  const profile = getProfile(options.profile ?? 'default');
  if (!profile) throw new Error(`unknown profile ${options.profile}; known profiles: ${profiles.map((p) => p.name).join(', ')}`);
  const fixture = options.fixture ?? 'default';
  const dataset = typeof fixture === 'string' ? datasetOf(fixture) : fixture;
  const state = createState(dataset, { datasetChecked: dataset === sharedDefault() });
  const { authToken } = options;
  const app = buildApp({
    state,
    handlers,
    faults: new Set([...profile.deviations, ...(options.faults ?? [])]),
    variations: new Set(options.variations),
    refusalStyle: options.refusalStyle ?? profile.refusalStyle,
    multichannelling: profile.multichannelling,
    authToken,
    limits: options.limits,
    logger: options.logger,
  });
  if (options.pace) applyPace(app, options.pace);
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (err) {
    await app.close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://${urlHost(host)}:${port}${API_PREFIX}`;
  const roles = fixtureIds(state);
  const ids = { ...roles, ...translationPages(dataset, roles.pagesFolderId, roles.masterNodeId) };
  // A data set without a channel (its fixture falls back to the master) cannot have multichannelling judged: not declared.
  const hasChannel = ids.channelNodeId !== ids.masterNodeId;
  const { channelNodeId: _, channelRootFolderId: __, ...unchannelled } = ids;
  const target: Target = {
    baseUrl,
    auth: { query: authToken === undefined ? {} : { sid: authToken }, headers: {} },
    features: [
      ...FEATURES.filter((f) => (profile.multichannelling && hasChannel) || f !== 'multichannelling'),
      ...(authToken === undefined ? [] : ['auth' as const]),
      'disposable',
    ],
    fixture: hasChannel ? ids : unchannelled,
  };
  return { baseUrl, target, state, close: () => app.close() };
}
