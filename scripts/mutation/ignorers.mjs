// @ts-check
/**
 * The mutation run's Stryker ignorers: `planted-faults` and `refusal-details`.
 *
 * `planted-faults`: mutants of planted-fault code are never counted. The reference server asks
 * `faults.has(name)` (or `ctx.faults.has(name)`, `switches.has(name)`, `variations.has(name)`) where a
 * planted fault or a harmless variation changes what it does; in the server a vendor would build, every such switch is off. So the ignorer reads each
 * switch as `false`, folds what follows from that (`!`, `&&`, `||`, `?:`, `if`, and consts bound to such
 * an expression), and ignores:
 * - the switches themselves and whatever has a constant value once they are off (`F && x`);
 * - code that never runs with every switch off (the consequent of `if (F)`, the `x` of `F && x`).
 * An operator joining a real operand to a switch (`a && !F`) keeps its mutants: replacing it changes what
 * the real operand decides, as replacing `a` itself would. Ignoring a node ignores all of it, so only
 * nodes that are fault code through and through are ignored.
 * It reads names and shapes only, so it works on any file Stryker instruments.
 * A handler file converted to one seam per handler (CONTRIBUTING) asks no switch: its faults are in
 * server/handlers/planted/, which the run does not mutate at all (stryker.config.mjs), so this ignorer
 * only matters to the files still to be converted.
 */
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/**
 * @typedef {{ type: string; [key: string]: any }} Node
 * @typedef {{ node: Node; parentPath: Path | null; key: string | number | null; listKey?: string; scope: { getBinding(name: string): { path: Path; constant: boolean; kind: string } | undefined } }} Path
 */

/** The names the server gives its sets of switches: planted faults and harmless variations (server/types.ts FaultSet). */
const SWITCH_SETS = new Set(['faults', 'switches', 'variations']);

/** Whether a node is a fault switch: a call `faults.has(...)` (or `switches`, `variations`), or `<anything>.faults.has(...)`. */
export function isFaultSwitch(/** @type {Node} */ node) {
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return false;
  const callee = node.callee;
  if (!callee || (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression')) return false;
  if (callee.computed || callee.property.type !== 'Identifier' || callee.property.name !== 'has') return false;
  const object = callee.object;
  if (object.type === 'Identifier') return SWITCH_SETS.has(object.name);
  return (
    (object.type === 'MemberExpression' || object.type === 'OptionalMemberExpression') &&
    !object.computed &&
    SWITCH_SETS.has(object.property.name)
  );
}

/** Skips the wrappers that do not change a value: parentheses and TypeScript's `as`, `!` and `satisfies`. */
function unwrap(/** @type {Node} */ node) {
  let n = node;
  while (
    ['ParenthesizedExpression', 'TSAsExpression', 'TSNonNullExpression', 'TSSatisfiesExpression', 'TypeCastExpression'].includes(n.type)
  )
    n = n.expression;
  return n;
}

/**
 * The value an expression has when every fault switch is off: true or false where that is certain,
 * undefined otherwise. `scope` resolves a name bound by `const` to the expression it was bound to.
 */
export function valueWithFaultsOff(/** @type {Node} */ expression, /** @type {Path['scope'] | undefined} */ scope, depth = 0) {
  if (depth > 20) return undefined;
  const node = unwrap(expression);
  if (isFaultSwitch(node)) return false;
  const next = (/** @type {Node} */ n) => valueWithFaultsOff(n, scope, depth + 1);
  switch (node.type) {
    case 'UnaryExpression': {
      if (node.operator !== '!') return undefined;
      const v = next(node.argument);
      return v === undefined ? undefined : !v;
    }
    case 'LogicalExpression': {
      const left = next(node.left);
      const right = next(node.right);
      if (node.operator === '&&') return left === false || right === false ? false : left === true ? right : undefined;
      if (node.operator === '||') return left === true || right === true ? true : left === false ? right : undefined;
      return undefined;
    }
    case 'Identifier': {
      const binding = scope?.getBinding(node.name);
      if (!binding || binding.kind !== 'const' || binding.path.node.type !== 'VariableDeclarator' || !binding.path.node.init)
        return undefined;
      return valueWithFaultsOff(binding.path.node.init, binding.path.scope, depth + 1);
    }
    default:
      return undefined;
  }
}

/** Whether a node is an expression whose value is certain with every switch off. */
const constant = (/** @type {Node} */ node, /** @type {Path} */ path) => valueWithFaultsOff(node, path.scope) !== undefined;

/** Why a path is fault code, or undefined. */
export function faultCode(/** @type {Path} */ path) {
  const node = path.node;
  // A node with a certain value (the switch, `F && x`, `!F`) is the fault's wiring, whatever its parent.
  if (/Expression$|^Identifier$/.test(node.type) && constant(node, path)) return 'planted-fault switch: constant with every fault off';
  // Code that never runs with every switch off.
  for (let child = path, parent = path.parentPath; parent; child = parent, parent = parent.parentPath) {
    const p = parent.node;
    if ((p.type === 'IfStatement' || p.type === 'ConditionalExpression') && child.key !== 'test') {
      const test = valueWithFaultsOff(p.test, parent.scope);
      if ((child.key === 'consequent' && test === false) || (child.key === 'alternate' && test === true))
        return 'planted-fault code: never runs with every fault off';
    }
    if (p.type === 'LogicalExpression' && child.key === 'right') {
      const left = valueWithFaultsOff(p.left, parent.scope);
      if ((p.operator === '&&' && left === false) || (p.operator === '||' && left === true))
        return 'planted-fault code: never runs with every fault off';
    }
  }
  return undefined;
}

/** The names of the server's refusals: `new Refusal(...)`, `new RequestRefusal(...)`, `memberRefusal(...)`. */
const REFUSAL = /Refusal$/;

/**
 * `refusal-details`: what a refusal says, never whether there is one. The arguments of a refusal (its
 * responseCode, message, property and HTTP status) are what contract 7 leaves open: "error status codes,
 * error bodies and `responseCode` values other than `OK`: not shown". A mutant of them can only survive
 * a suite that judges the contract, so it is beyond the contract by this rule, and it would cost a run of
 * every test that reaches the refusal. Whether a request is refused is decided outside these arguments,
 * and its mutants stay.
 */
export function refusalDetail(/** @type {Path} */ path) {
  const node = path.node;
  if (node.type !== 'NewExpression' && node.type !== 'CallExpression') return undefined;
  const callee = node.callee;
  if (callee?.type !== 'Identifier' || !REFUSAL.test(callee.name)) return undefined;
  return 'refusal detail: code, message, property and status of a refusal are not shown by the contract (section 7)';
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'planted-faults', { shouldIgnore: (path) => faultCode(/** @type {Path} */ (path)) }),
  declareValuePlugin(PluginKind.Ignore, 'refusal-details', { shouldIgnore: (path) => refusalDetail(/** @type {Path} */ (path)) }),
];
