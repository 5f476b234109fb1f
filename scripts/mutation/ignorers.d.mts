// The types of ignorers.mjs, which Stryker loads as JavaScript (its plugins are imported, not compiled).
import type { NodePath } from '@babel/core';
import type { Node } from '@babel/types';

/** Whether a node is a fault switch: a call `faults.has(...)` or `<anything>.faults.has(...)`. */
export function isFaultSwitch(node: Node): boolean;
/** The value an expression has when every fault switch is off: true or false where certain, else undefined. */
export function valueWithFaultsOff(expression: Node, scope: NodePath['scope'] | undefined, depth?: number): boolean | undefined;
/** Why a path is fault code, or undefined. */
export function faultCode(path: NodePath): string | undefined;
/** Why a path is a refusal's detail (code, message, property, status), or undefined. */
export function refusalDetail(path: NodePath): string | undefined;
/** The ignorers, as Stryker's plugin list. */
export const strykerPlugins: unknown[];
