import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The boundaries in eslint.config.js fire on a deliberate violation: each case lints made-up
// source as if it were a file of the tree (lintText with a filePath); the files it imports are real.
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: process.cwd() });
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('lint boundaries', { timeout: 60_000 }, () => {
  it('an island feature does not import another feature', async () => {
    const code = "import '../leaderboards/Leaderboard.tsx';\n";
    expect(await problems('src/islands/news/Probe.tsx', code)).toContain('import-x/no-restricted-paths');
    expect(await problems('src/islands/leaderboards/Probe.tsx', code.replace('../leaderboards/', './'))).toEqual([]);
  });

  it('islands, lib and components never import src/server', async () => {
    const code = "import '../../server/api/app.ts';\n";
    expect(await problems('src/islands/news/Probe.tsx', code)).toContain('import-x/no-restricted-paths');
    expect(await problems('src/lib/api/probe.ts', code)).toContain('import-x/no-restricted-paths');
    expect(await problems('src/components/Probe.tsx', code.replace('../../', '../'))).toContain('import-x/no-restricted-paths');
  });

  it('the domain never imports the API client', async () => {
    const code = "import '../api/news.ts';\n";
    expect(await problems('src/lib/domain/probe.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('routes never import the database', async () => {
    const code = "import '../../db/schema/index.ts';\n";
    expect(await problems('src/server/api/routes/probe.ts', code)).toContain('import-x/no-restricted-paths');
    expect(await problems('src/server/services/probe.ts', code.replace('../../', '../'))).toEqual([]);
  });

  it('services, the database and mail never import the API layer', async () => {
    const code = "import '../api/errors.ts';\n";
    expect(await problems('src/server/services/probe.ts', code)).toContain('import-x/no-restricted-paths');
    expect(await problems('src/server/mail/probe.ts', code)).toContain('import-x/no-restricted-paths');
    expect(await problems('src/server/api/probe.ts', "import '../services/content/images.ts';\n")).toEqual([]);
  });

  it('a route does not import another route', async () => {
    expect(await problems('src/server/api/routes/probe.ts', "import './tournaments.ts';\n")).toContain('import-x/no-restricted-paths');
    expect(await problems('src/server/api/routes/probe.ts', "import '../openapi.ts';\n")).toEqual([]);
  });

  it('a route does not publish live events: the service that writes does', async () => {
    const code = "import { publishTournament } from '../../services/live/live.ts';\nexport const probe = publishTournament;\n";
    expect(await problems('src/server/api/routes/probe.ts', code)).toContain('@typescript-eslint/no-restricted-imports');
    for (const name of ['publishUser', 'publishing']) {
      expect(await problems('src/server/api/probe.ts', code.replaceAll('publishTournament', name).replace('../../', '../'))).toContain('@typescript-eslint/no-restricted-imports');
    }
    // What a stream route needs of the module stays open to it, and a service still publishes.
    expect(await problems('src/server/api/routes/probe.ts', code.replaceAll('publishTournament', 'subscribeTournament'))).toEqual([]);
    expect(await problems('src/server/services/competition/probe.ts', code.replace('../../services/', '../'))).toEqual([]);
  });

  it('an import cycle is refused', async () => {
    // format.ts imports core.ts; core.ts importing format.ts back closes a cycle.
    expect(await problems('src/lib/i18n/core.ts', "import './format.ts';\n")).toContain('import-x/no-cycle');
  });

  it('a module every page loads takes its texts from a narrow catalog', async () => {
    const code = "import { t } from '../i18n/index.ts';\nexport const probe = t;\n";
    expect(await problems('src/lib/stores/probe.ts', code)).toContain('@typescript-eslint/no-restricted-imports');
    expect(await problems('src/lib/stores/probe.ts', code.replace('index.ts', 'common.ts'))).toEqual([]);
  });
});
