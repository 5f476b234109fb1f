// Temporary: the rules moved to harness/registry.ts; this file goes once every importer points there.
export { checkExchange as checkListing, exchangeLine, findingLine, observe, type Observation } from './registry.ts';
export { ListParams } from './rules/answer.ts';
