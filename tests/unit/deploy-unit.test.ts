import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_MALLOC, serverNodeOptions } from '../../scripts/server-memory.ts';

const unit = readFileSync('deploy/kiberarena.service', 'utf8');
const NODE = '/srv/kiberarena/node_modules/.bin/node';
const SERVER = 'dist/serving/serve.mjs';

/** The unit's `Key=value` lines. */
const settings = (key: string) =>
  unit
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1));

/** ExecStart's shell script as systemd hands it to /bin/sh: `$$` is systemd's escape for `$`. */
function script(): string {
  const [execStart] = settings('ExecStart');
  const quoted = /^\/bin\/sh -c '([^']*)'$/.exec(execStart ?? '');
  if (!quoted) throw new Error(`ExecStart is not /bin/sh -c '…': ${execStart}`);
  // A lone `$` would be expanded by systemd, with the environment file's raw values, before the shell saw it.
  expect(quoted[1]!.replaceAll('$$', '')).not.toContain('$');
  return quoted[1]!.replaceAll('$$', '$');
}

/** The NODE_OPTIONS the server gets from the unit, with `env` as the environment file. */
function nodeOptionsUnder(env: Record<string, string>): string {
  const run = script().replace(NODE, process.execPath).replace(SERVER, '-p process.env.NODE_OPTIONS');
  const result = spawnSync('/bin/sh', ['-c', run], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.trim();
}

describe('deploy/kiberarena.service', () => {
  it('runs the bundled server with the pinned Node, as npm start does', () => {
    expect(script()).toContain(`exec ${NODE} ${SERVER}`);
    expect(settings('Environment')).toContain('BUILD_DIR=dist');
  });

  it("gives the server npm start's memory flags for its database, and an operator's NODE_OPTIONS after them", () => {
    expect(nodeOptionsUnder({})).toBe(serverNodeOptions(true).join(' '));
    expect(nodeOptionsUnder({ DATABASE_URL: 'postgres://kiberarena@127.0.0.1:5432/kiberarena' })).toBe(serverNodeOptions(false).join(' '));
    expect(nodeOptionsUnder({ NODE_OPTIONS: '--max-old-space-size=512' })).toBe([...serverNodeOptions(true), '--max-old-space-size=512'].join(' '));
  });

  it("sets npm start's malloc settings before the environment file, which may override them", () => {
    const environment = settings('Environment');
    for (const [name, value] of Object.entries(SERVER_MALLOC)) expect(environment).toContain(`${name}=${value}`);
    expect(unit.indexOf('EnvironmentFile=')).toBeGreaterThan(unit.lastIndexOf('Environment=MALLOC_'));
  });
});
