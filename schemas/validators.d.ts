// The types of schemas/validators.js, which scripts/gen-validators.ts generates.
import type { ValidateFunction } from 'ajv/dist/2020.js';

/** The contract's validators, precompiled, by schema `$id`. */
declare const validators: Readonly<Record<string, ValidateFunction | undefined>>;
export default validators;
