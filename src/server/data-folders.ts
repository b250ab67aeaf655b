// The folders this process writes under DATA_DIR, checked before the database opens: a folder it
// cannot write would otherwise end the start with PGlite's or Emscripten's trace (an ErrnoError that
// names only a number), and Node's recursive mkdir never returns for a path under /proc.
import { mkdirSync, statfsSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isDiskFull } from './services/db-errors.ts';
import type { Env } from './env.ts';

/** The start cannot go on; `message` is the one sentence for the operator, saying what to fix. */
export class StartProblem extends Error {
  override name = 'StartProblem';
}

/** Why a folder cannot be written, in the operator's words, by the error's code. */
const REASONS: Record<string, string> = {
  ENOTDIR: 'частина шляху — файл, а не папка',
  EEXIST: 'це файл, а не папка',
  ENOENT: 'шлях не існує, і створити його не вдається',
  EROFS: 'файлова система лише для читання',
  EACCES: 'немає прав на запис',
  EPERM: 'немає прав на запис',
  ENOSPC: 'на диску закінчилося місце',
  EDQUOT: 'вичерпано квоту диска',
};

/** The folders under DATA_DIR this configuration writes: the embedded database's and the letters' outbox. */
export function dataFolders(env: Pick<Env, 'DATA_DIR' | 'DATABASE_URL' | 'SMTP_URL'>): string[] {
  const folders: string[] = [];
  if (!env.DATABASE_URL) folders.push(join(env.DATA_DIR, 'db'));
  if (!env.SMTP_URL) folders.push(join(env.DATA_DIR, 'outbox'));
  // DATA_DIR first, so a wrong DATA_DIR is named rather than a folder inside it.
  return folders.length > 0 ? [env.DATA_DIR, ...folders] : [];
}

/** Makes `path` and its missing parents, one at a time: `mkdirSync(…, { recursive })` loops for ever where mkdir says ENOENT of a parent that exists (/proc). */
function makeFolder(path: string): void {
  try {
    mkdirSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (!statSync(path).isDirectory()) throw error;
      return;
    }
    const parent = dirname(path);
    if (code !== 'ENOENT' || parent === path) throw error;
    makeFolder(parent);
    mkdirSync(path);
  }
}

/**
 * Free space below which the embedded database is not opened: it cannot start (its recovery writes
 * a 16 MB log segment; a fresh one needs about 40 MB) and would stop at its first log write (db/client.ts).
 */
export const EMBEDDED_MIN_FREE_BYTES = 32 * 1024 * 1024;

/**
 * What is wrong with writing in `folder`, as one sentence, or null when a file can be made and
 * removed there (and `minFree` bytes are free: an empty file needs no space, so it proves none).
 */
export function folderProblem(folder: string, minFree = 0): string | null {
  const path = resolve(folder);
  try {
    makeFolder(path);
    const probe = join(path, `.write-check-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
    if (minFree > 0) {
      const { bavail, bsize } = statfsSync(path);
      if (bavail * bsize < minFree) return diskFullSentence(path);
    }
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'невідома помилка';
    if (code === 'ENOSPC' || code === 'EDQUOT') return diskFullSentence(path);
    return `Сервер не може писати в папку ${path} (${REASONS[code] ?? code}): зробіть її доступною для запису користувачу, від якого запущено сервер, або вкажіть у DATA_DIR іншу папку.`;
  }
}

const diskFullSentence = (path: string) =>
  `На диску з папкою ${path} закінчилося місце для даних: звільніть місце на ньому або вкажіть у DATA_DIR папку на іншому диску.`;

/** Throws a `StartProblem` naming the first folder under DATA_DIR this process cannot write. */
export function checkDataFolders(env: Pick<Env, 'DATA_DIR' | 'DATABASE_URL' | 'SMTP_URL'>): void {
  const embedded = env.DATABASE_URL ? null : join(env.DATA_DIR, 'db');
  for (const folder of dataFolders(env)) {
    const problem = folderProblem(folder, folder === embedded ? EMBEDDED_MIN_FREE_BYTES : 0);
    if (problem) throw new StartProblem(problem);
  }
}

/**
 * Why the embedded database in `folder` did not open, as a `StartProblem`: PGlite says only
 * "failed to initialize properly", or throws Emscripten's ErrnoError with a number (51: no space).
 */
export function embeddedOpenProblem(error: unknown, folder: string): StartProblem {
  const path = resolve(folder);
  if (isDiskFull(error)) return new StartProblem(diskFullSentence(path), { cause: error });
  const said = error instanceof Error && error.message ? error.message : String((error as { name?: unknown })?.name ?? error);
  return new StartProblem(
    `Вбудована база даних у папці ${path} не відкрилася (${said}): перевірте, що на диску є місце й папка доступна для запису, або вкажіть у DATA_DIR іншу папку.`,
    { cause: error },
  );
}

/** `error` from preparing the embedded database, as a `StartProblem` when it is the disk being full; any other error as it is. */
export function startProblemOf(error: unknown, env: Pick<Env, 'DATA_DIR' | 'DATABASE_URL'>): unknown {
  if (!env.DATABASE_URL && isDiskFull(error)) return new StartProblem(diskFullSentence(resolve(env.DATA_DIR, 'db')), { cause: error });
  return error;
}
