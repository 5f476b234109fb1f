/**
 * Replay lines: how a reader reproduces a finding. A curl command for the failing request (with
 * credentials as shell variables the reader sets, never their values) and the run line that repeats
 * exactly that case.
 */
import type { Target } from '../schemas/target.ts';
import type { Exchange } from './transport.ts';

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The shell variable that stands for a credential, e.g. query `sid` -> CMS_AUTH_SID. */
export function credentialVariable(name: string): string {
  return `CMS_AUTH_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** A curl command reproducing the request of an exchange; credentials appear as "$CMS_AUTH_..." variables. */
export function curlCommand(exchange: Exchange, auth: Target['auth'] = { query: {}, headers: {} }): string {
  const { method, url, headers, body } = exchange.request;
  const parts = ['curl', '-sS', '-X', method];
  const authQuery = Object.keys(auth.query).map((k) => `${encodeURIComponent(k)}=$${credentialVariable(k)}`);
  const fullUrl = authQuery.length ? `${url}${url.includes('?') ? '&' : '?'}${authQuery.join('&')}` : url;
  // Double quotes only where a variable must expand; the URL is otherwise literal.
  parts.push(authQuery.length ? `"${fullUrl.replace(/(["\\`])/g, '\\$1')}"` : shellQuote(fullUrl));
  for (const [k, v] of Object.entries(headers)) {
    if (body?.kind === 'multipart' && k === 'content-type') continue;
    parts.push('-H', shellQuote(`${k}: ${v}`));
  }
  for (const k of Object.keys(auth.headers)) parts.push('-H', `"${k}: $${credentialVariable(k)}"`);
  if (body?.kind === 'json' || body?.kind === 'text') parts.push('--data-binary', shellQuote(body.text));
  if (body?.kind === 'binary') parts.push('--data-binary', `@FILE  # ${body.size} bytes, sha256 ${body.sha256}`);
  if (body?.kind === 'multipart') {
    for (const [k, v] of Object.entries(body.fields)) parts.push('-F', shellQuote(`${k}=${v}`));
    for (const f of body.files) {
      parts.push('-F', shellQuote(`${f.name}=@FILE${f.filename !== undefined ? `;filename=${f.filename}` : ''};type=${f.contentType}`));
    }
    if (body.files.length) parts.push(` # FILE: ${body.files.map((f) => `${f.size} bytes, sha256 ${f.sha256}`).join('; ')}`);
  }
  return parts.join(' ');
}

/** The cms-conformance run line that repeats one test with the same seed (and fast-check path, when known). */
export function runLine(options: { requirement: string; seed: number; path?: string; args?: readonly string[] }): string {
  const parts = ['npx cms-conformance run', `--only ${options.requirement}`, `--seed ${options.seed}`];
  if (options.path) parts.push(`--replay-path ${shellQuote(options.path)}`);
  for (const arg of options.args ?? []) parts.push(/^[\w@%+=:,./-]+$/.test(arg) ? arg : shellQuote(arg));
  return parts.join(' ');
}
