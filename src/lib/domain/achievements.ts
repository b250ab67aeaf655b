import { compileExpression } from 'filtrex';
import { t } from '../i18n/index.ts';
import { CONDITION_FUNCTIONS, CONDITION_MAX_LENGTH, conditionVariables } from './stat-fields.ts';

export { AGGREGATE_STAT_NAMES, conditionVariables, type AggregateStatName } from './stat-fields.ts';

/**
 * Achievement conditions (SPEC §3, §5): a small expression over a competitor's numbers, such as
 * `kills >= 100` or `wins >= 10 and winRate > 60`, compiled by filtrex — never `eval`. filtrex
 * builds a function from its own generated code, so this module belongs on the server (a strict
 * Content-Security-Policy would refuse it in the browser); islands show the server's verdict.
 */

export type CompiledCondition = { ok: true; evaluate: (values: Record<string, number>) => boolean } | { ok: false; error: string };

type TokenKind = 'symbol' | 'call' | 'keyword' | 'number' | 'string' | 'operator';
interface Token {
  kind: TokenKind;
  /** The name for symbols and calls (quotes removed); the source text otherwise. */
  text: string;
  /** The source text. */
  raw: string;
}

// The lexical rules of filtrex 3 (src/generateParser.mjs), in its order: the first rule that
// matches wins. Mirrored here only to name what an expression uses; filtrex still parses it.
const RULES: [TokenKind | 'space', RegExp][] = [
  ['operator', /^(?:==|!=|~=|>=|<=|[*/\-+^(),<>])/],
  ['keyword', /^(?:not\s+in|and|or|not|in|of|if|then|else|mod)(?=[^\w])/],
  ['space', /^\s+/],
  ['number', /^[0-9]+(?:\.[0-9]+)?(?![0-9.])/],
  ['symbol', /^[a-zA-Z$_][.a-zA-Z0-9$_]*/],
  ['symbol', /^'(?:\\'|\\\\|[^'\\])*'/],
  ['string', /^"(?:\\"|\\\\|[^"\\])*"/],
  ['operator', /^[%?:]/],
];

type Lexed = { ok: true; tokens: Token[] } | { ok: false; position: number };

function tokenize(expression: string): Lexed {
  const tokens: Token[] = [];
  let position = 0;
  while (position < expression.length) {
    const rest = expression.slice(position);
    let matched = false;
    for (const [kind, pattern] of RULES) {
      const found = pattern.exec(rest);
      if (!found) continue;
      const raw = found[0];
      const text = kind === 'symbol' && raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(['\\])/g, '$1') : raw;
      if (kind === 'symbol' && /^\s*\(/.test(rest.slice(raw.length))) tokens.push({ kind: 'call', text, raw });
      else if (kind !== 'space') tokens.push({ kind, text, raw });
      position += found[0].length;
      matched = true;
      break;
    }
    if (!matched) return { ok: false, position };
  }
  return { ok: true, tokens };
}

/** The edit distance of two short words, for «did you mean». */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function unknownField(name: string, known: readonly string[]): string {
  const close = known
    .map((candidate) => ({ candidate, d: distance(name, candidate) }))
    .filter(({ d }) => d <= Math.max(1, Math.floor(name.length / 3)))
    .sort((x, y) => x.d - y.d)[0];
  return close
    ? t('gameManagement.condition.unknownFieldSuggest', { name, suggestion: close.candidate })
    : t('gameManagement.condition.unknownField', { name });
}

const UNSUPPORTED: Record<string, 'gameManagement.condition.noRegex' | 'gameManagement.condition.noOf' | 'gameManagement.condition.useMod' | 'gameManagement.condition.useIf'> = {
  '~=': 'gameManagement.condition.noRegex',
  of: 'gameManagement.condition.noOf',
  '%': 'gameManagement.condition.useMod',
  '?': 'gameManagement.condition.useIf',
  ':': 'gameManagement.condition.useIf',
};

/** The first thing in the tokens a condition may not use, as a message; null when all is known. */
function checkTokens(tokens: readonly Token[], known: ReadonlySet<string>, knownList: readonly string[]): string | null {
  const functions = new Set<string>(CONDITION_FUNCTIONS);
  for (const token of tokens) {
    if (token.kind === 'string') return t('gameManagement.condition.noStrings');
    if ((token.kind === 'operator' || token.kind === 'keyword') && token.text in UNSUPPORTED) return t(UNSUPPORTED[token.text]!);
    if (token.kind === 'call' && !functions.has(token.text)) {
      return t('gameManagement.condition.unknownFunction', { name: token.text, functions: CONDITION_FUNCTIONS.join(', ') });
    }
    if (token.kind === 'symbol' && !known.has(token.text)) return unknownField(token.text, knownList);
  }
  return null;
}

/** A Ukrainian sentence for what filtrex's parser refused. */
function syntaxError(error: unknown, expression: string): string {
  const text = error instanceof Error ? error.message : '';
  const lines = text.split('\n');
  if (/got 'EndOfExpression'/.test(text) || expression.length === 0) {
    const tail = expression.length > 24 ? `…${expression.slice(-24)}` : expression;
    return t('gameManagement.condition.unexpectedEnd', { before: tail.trim() });
  }
  // jison shows «<input around the error>\n<dashes up to it>^»: the text from the caret on is
  // where reading stopped.
  const shown = lines[1] ?? '';
  const caret = (lines[2] ?? '').indexOf('^');
  const near = caret >= 0 ? shown.slice(caret).trim() : '';
  return near ? t('gameManagement.condition.syntaxNear', { near }) : t('gameManagement.condition.syntax');
}

/** A number from `values` for a known name: missing, non-numeric or non-finite values count as 0. */
function readValue(values: unknown, name: string): number {
  if (values === null || typeof values !== 'object' || !Object.hasOwn(values, name)) return 0;
  const value = (values as Record<string, unknown>)[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * Checks and compiles an achievement condition against a game's stat field names plus the
 * aggregates every competitor has (`AGGREGATE_STAT_NAMES`). Supports comparisons, `and`/`or`/
 * `not`, arithmetic, `mod`, parentheses, `if … then … else`, `x in (a, b)` and the functions
 * `CONDITION_FUNCTIONS`. Returns a Ukrainian `error` naming the problem (unknown field, bad
 * syntax, unsupported operator), or `evaluate`, which reads only own numeric properties of the
 * values given (a missing one is 0) and answers whether the result is truthy; a failure while
 * evaluating is false, never a throw.
 */
export function compileCondition(expression: string, fieldNames: readonly string[]): CompiledCondition {
  const source = expression.replace(/\s+/g, ' ').trim();
  if (!source) return { ok: false, error: t('gameManagement.condition.empty') };
  if (source.length > CONDITION_MAX_LENGTH) return { ok: false, error: t('gameManagement.condition.tooLong', { max: CONDITION_MAX_LENGTH }) };

  const lexed = tokenize(source);
  if (!lexed.ok) {
    const char = source.charAt(lexed.position);
    if (char === '=') return { ok: false, error: t('gameManagement.condition.singleEquals') };
    return { ok: false, error: t('gameManagement.condition.unrecognized', { char, position: lexed.position + 1 }) };
  }

  // filtrex reads a keyword together with the character after it, so `not(kills > 5)` would lose
  // its bracket; the same tokens spaced apart mean the same and parse as written.
  const spaced = lexed.tokens.map((token) => token.raw).join(' ');
  let run: (data: unknown) => unknown;
  try {
    run = compileExpression(spaced, { customProp: (name, _get, data) => readValue(data, name) });
  } catch (error) {
    return { ok: false, error: syntaxError(error, source) };
  }

  const knownList = conditionVariables(fieldNames);
  const problem = checkTokens(lexed.tokens, new Set(knownList), knownList);
  if (problem) return { ok: false, error: problem };

  const evaluate = (values: Record<string, number>): boolean => {
    const result = run(values);
    return !(result instanceof Error) && !Array.isArray(result) && Boolean(result);
  };
  // Every name is known and every value a number: what still fails is a type error (a number
  // where and/or/not need a comparison, a list used as a number) or a list as the answer. Tried on
  // a few sets of values, since and/or skip their right side; found now rather than silently never
  // matching later.
  const probes = [0, 1, 1e9].map((n) => Object.fromEntries(knownList.map((name) => [name, n])));
  for (const probe of probes) {
    const result = run(probe);
    if (result instanceof Error || Array.isArray(result)) return { ok: false, error: t('gameManagement.condition.notComputable') };
  }
  return { ok: true, evaluate };
}
