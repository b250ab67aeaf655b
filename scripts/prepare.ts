// Prepares the database (migrations, admin, demo data) and prints where to go and how to sign in.
// `npm start` runs it as a short-lived process of its own before serving, so the serving process
// loads the server code once, from the build, instead of once from source and once bundled.
import { join } from 'node:path';
import { StartProblem } from '../src/server/data-folders.ts';
import { DATABASE_PREPARED, EnvError } from '../src/server/env.ts';
import { getRuntime, type Runtime } from '../src/server/runtime.ts';

let runtime: Runtime;
try {
  runtime = await getRuntime({ serving: false });
} catch (error) {
  // What the operator must fix, in one sentence, instead of a trace from inside the database driver.
  if (!(error instanceof StartProblem || error instanceof EnvError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const { env } = runtime;
if (!runtime.setup) throw new Error(`${DATABASE_PREPARED} is for the server npm start runs, not for preparing`);
const { admin, seeded } = runtime.setup;

console.log('');
// The address the server listens on is printed once, by the server when it is up (serve.ts); this is the one the site names itself by.
console.log(`Публічна адреса (посилання в листах, превʼю, RSS, sitemap): ${env.siteUrl}`);
if (!env.SITE_URL) console.log('Для публічного сайту задайте SITE_URL (наприклад https://kiberarena.ua).');
console.log(`База даних: ${runtime.deps.database.kind === 'pglite' ? `PGlite у ${join(env.DATA_DIR, 'db')}` : 'PostgreSQL'}`);
if (seeded) console.log('Додано демо-дані (гравці мають пароль demo12345).');
if (admin.kind === 'created') {
  console.log(`Адміністратор: ${admin.email} (нікнейм ${admin.username}), пароль: ${admin.password}`);
  if (admin.generated) console.log('Пароль згенеровано й показано один раз — збережіть його.');
} else {
  console.log(`Адміністратор: ${admin.email}${admin.kind === 'exists' ? ' (пароль показано під час першого запуску)' : ''}`);
}
console.log('');

await runtime.deps.limits.close();
await runtime.deps.database.close();
