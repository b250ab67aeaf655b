// The shipped nginx configuration (deploy/nginx.conf), run by Debian's nginx on loopback ports of a
// test's or benchmark's choosing: tests/e2e/nginx.spec.ts and bench/server/nginx.ts. Nothing of the
// configuration is copied here. The shipped file is read as it is and only what ties it to a
// production machine is moved: ports, the folders it writes to, the certificate (a self-signed one
// made for the run). Each of those strings must be found in the file as many times as expected, or
// the run stops saying which one changed, so the tested configuration cannot drift from the shipped one.
//
// `node deploy/nginx-local.ts` writes such a configuration into a temporary folder and runs `nginx -t` on it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Debian's nginx (`apt-get install nginx`). */
export const NGINX = '/usr/sbin/nginx';

/** The shipped configuration. */
export const SHIPPED_CONFIG = resolve(import.meta.dirname, 'nginx.conf');

export interface LocalNginxOptions {
  /** A folder of the run's own: logs, cache, temporary files, pid, certificate (created when missing). */
  prefix: string;
  /** The two app instances' ports on 127.0.0.1 (the shipped upstream's :4321 and :4322). */
  upstreams: readonly [number, number];
  /** Where the shipped `listen 80` (certificates and the redirect to HTTPS) listens. */
  http: number;
  /** Where the shipped `listen 443 ssl http2` (the site) listens. */
  https: number;
  /** The site's server on plain HTTP as well, on this port: a benchmark on loopback without TLS's cost on both sides. */
  plain?: number;
  /** More inside `http { }`, after the shipped servers (a benchmark's static twin of a page). */
  extra?: string;
}

/** The hard limit of open files this process (and so the nginx it starts) may raise itself to. */
function openFilesLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const hard = line?.split(/\s{2,}/)[2];
  return hard === undefined || hard === 'unlimited' ? 65536 : Number(hard);
}

/**
 * `text` with every `from` replaced by `to`; `from` must occur exactly `times` times outside comments
 * (the file's comments name these strings too, and are moved with them).
 */
function replaceExactly(text: string, from: string, to: string, times = 1): string {
  const found = text.replace(/#.*$/gm, '').split(from).length - 1;
  if (found !== times) {
    throw new Error(`deploy/nginx.conf changed: «${from}» occurs ${found} times, deploy/nginx-local.ts expects ${times}. Update both together.`);
  }
  return text.split(from).join(to);
}

/** The shipped configuration with its machine's ports and paths moved to `options`'. */
export function localNginxConfig(options: LocalNginxOptions, shipped = readFileSync(SHIPPED_CONFIG, 'utf8')): string {
  const { prefix } = options;
  const [a, b] = options.upstreams;
  let text = shipped;
  // The workers run as whoever runs this (root on the project's machines; the directive is ignored otherwise).
  text = replaceExactly(text, 'user www-data;', `user ${userInfo().username};`);
  text = replaceExactly(text, 'pid /run/nginx.pid;', `pid ${prefix}/nginx.pid;`);
  // No more open files than this process may have (a container's limit is often lower), so nginx need not complain.
  text = replaceExactly(text, 'worker_rlimit_nofile 65536;', `worker_rlimit_nofile ${Math.min(65536, openFilesLimit())};`);
  text = replaceExactly(text, '/var/log/nginx/', `${prefix}/`, 2);
  text = replaceExactly(text, '/var/lib/nginx/', `${prefix}/`, 2);
  text = replaceExactly(text, '/var/cache/nginx/kiberarena', `${prefix}/cache`);
  text = replaceExactly(text, 'server 127.0.0.1:4321 ', `server 127.0.0.1:${a} `);
  text = replaceExactly(text, 'server 127.0.0.1:4322 ', `server 127.0.0.1:${b} `);
  // Loopback only, and no IPv6 (a container may have none).
  text = replaceExactly(text, '        listen 80;\n', `        listen 127.0.0.1:${options.http};\n`);
  text = replaceExactly(text, '        listen [::]:80;\n', '');
  const plain = options.plain === undefined ? '' : `        listen 127.0.0.1:${options.plain};\n`;
  text = replaceExactly(text, '        listen 443 ssl http2;\n', `        listen 127.0.0.1:${options.https} ssl http2;\n${plain}`);
  text = replaceExactly(text, '        listen [::]:443 ssl http2;\n', '');
  text = replaceExactly(text, '/etc/letsencrypt/live/kiberarena.ua/fullchain.pem', `${prefix}/certificate.pem`);
  text = replaceExactly(text, '/etc/letsencrypt/live/kiberarena.ua/privkey.pem', `${prefix}/certificate.key`);
  if (options.extra) {
    const end = text.lastIndexOf('}');
    text = `${text.slice(0, end)}${options.extra}\n${text.slice(end)}`;
  }
  return text;
}

/** A self-signed certificate for 127.0.0.1 and localhost in `prefix` (certificate.pem, certificate.key), made with openssl once. */
export function selfSignedCertificate(prefix: string): { certificate: string; key: string } {
  const certificate = join(prefix, 'certificate.pem');
  const key = join(prefix, 'certificate.key');
  if (existsSync(certificate) && existsSync(key)) return { certificate, key };
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      certificate,
    ],
    { encoding: 'utf8' },
  );
  if (made.error || made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.error?.message ?? made.stderr}`);
  return { certificate, key };
}

/** Writes the configuration and its certificate into `options.prefix`; the configuration's path. */
export function writeLocalNginx(options: LocalNginxOptions): string {
  mkdirSync(options.prefix, { recursive: true });
  selfSignedCertificate(options.prefix);
  const path = join(options.prefix, 'nginx.conf');
  writeFileSync(path, localNginxConfig(options));
  return path;
}

/** `nginx -t` on a configuration: its output, or an error with it. */
export function testNginxConfig(path: string, prefix: string): string {
  const checked = spawnSync(NGINX, ['-t', '-p', prefix, '-c', path], { encoding: 'utf8' });
  const output = `${checked.stdout}${checked.stderr}`.trim();
  if (checked.error || checked.status !== 0) throw new Error(`nginx -t failed on ${path}:\n${checked.error?.message ?? output}`);
  return output;
}

export interface LocalNginx {
  /** https://127.0.0.1:<https> */
  url: string;
  /** http://127.0.0.1:<plain>, when asked for. */
  plainUrl: string | undefined;
  /** http://127.0.0.1:<http>: the redirect server. */
  httpUrl: string;
  prefix: string;
  /** The master process (its workers are its children). */
  pid: number;
  /** The self-signed certificate readers must trust. */
  certificate: string;
  /** What nginx wrote to its error log and stderr. */
  errors(): string;
  /** The access log so far (written every 5 s, and when nginx stops). */
  accessLog(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground on the shipped configuration (`localNginxConfig`), after `nginx -t`,
 * and waits until the site's port answers (any status: the instances may not be up yet).
 */
export async function startLocalNginx(options: LocalNginxOptions): Promise<LocalNginx> {
  const path = writeLocalNginx(options);
  testNginxConfig(path, options.prefix);
  const child: ChildProcess = spawn(NGINX, ['-p', options.prefix, '-c', path, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exited = false;
  const gone = new Promise<void>((done) => child.once('exit', () => ((exited = true), done())));
  const read = (name: string) => {
    try {
      return readFileSync(join(options.prefix, name), 'utf8');
    } catch {
      return '';
    }
  };
  const nginx: LocalNginx = {
    url: `https://127.0.0.1:${options.https}`,
    plainUrl: options.plain === undefined ? undefined : `http://127.0.0.1:${options.plain}`,
    httpUrl: `http://127.0.0.1:${options.http}`,
    prefix: options.prefix,
    pid: child.pid!,
    certificate: join(options.prefix, 'certificate.pem'),
    errors: () => `${stderr}${read('kiberarena.error.log')}`,
    accessLog: () => read('kiberarena.access.log'),
    async stop() {
      if (exited) return;
      // SIGQUIT: finish what is under way (an open event stream is cut), flush the logs.
      child.kill('SIGQUIT');
      await Promise.race([gone, sleep(5000)]);
      if (!exited) child.kill('SIGKILL');
      await gone;
    },
  };
  const probe = `http://127.0.0.1:${options.http}/`;
  for (let tries = 0; tries < 100; tries++) {
    if (exited) break;
    const up = await fetch(probe, { redirect: 'manual' }).then(
      () => true,
      () => false,
    );
    if (up) return nginx;
    await sleep(100);
  }
  await nginx.stop();
  throw new Error(`nginx did not start on ${probe}:\n${nginx.errors()}`);
}

if (import.meta.main) {
  if (!existsSync(NGINX)) {
    console.error(`${NGINX} is missing: apt-get install nginx`);
    process.exit(1);
  }
  const prefix = mkdtempSync(join(tmpdir(), 'kiberarena-nginx-'));
  const path = writeLocalNginx({ prefix, upstreams: [4321, 4322], http: 8080, https: 8443, plain: 8081 });
  console.log(testNginxConfig(path, prefix));
  console.log(`deploy/nginx.conf as run locally: ${path}`);
}
