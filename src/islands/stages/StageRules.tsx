import { useId } from 'react';
import { MAX_BEST_OF_RULES, TIE_BREAKERS, type StageFormat, type TieBreaker } from '../../lib/domain/stage/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { BEST_OF_CHOICES, ruleSidesOf, type BestOfRuleForm } from './form.ts';

/**
 * Best-of by round (issue 57): «from round N of this side on, Bo X» rows — Bo1 until the
 * quarter-finals, Bo3 after, Bo5 in the grand final. A table stage's rules are by round alone.
 */
export function BestOfRules({ format, rules, onChange }: { format: StageFormat; rules: BestOfRuleForm[]; onChange: (rules: BestOfRuleForm[]) => void }) {
  const id = useId();
  const sides = ruleSidesOf(format);
  const change = (i: number, rule: Partial<BestOfRuleForm>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...rule } : r)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">{t('stageAdmin.bestOfRules')}</legend>
      <p className="text-xs text-muted">{t('stageAdmin.bestOfRulesHint')}</p>
      {rules.map((rule, i) => (
        <div key={i} className="flex flex-wrap items-end gap-2 text-sm" data-best-of-rule={i}>
          {sides.length > 0 && (
            <label className="flex flex-col gap-1">
              <span className="text-xs text-muted">{t('stageAdmin.ruleSide')}</span>
              <select className="field min-h-11" value={rule.side} onChange={(event) => change(i, { side: event.target.value as BestOfRuleForm['side'] })}>
                <option value="">{t('stageAdmin.ruleEverySide')}</option>
                {sides.map((side) => (
                  <option key={side} value={side}>
                    {t(`stages.side.${side}`)}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="flex flex-col gap-1" htmlFor={`${id}-round-${i}`}>
            <span className="text-xs text-muted">{t('stageAdmin.ruleFromRound')}</span>
            <input
              id={`${id}-round-${i}`}
              type="number"
              inputMode="numeric"
              min={1}
              max={64}
              className="field min-h-11 w-24"
              value={rule.round}
              onChange={(event) => change(i, { round: event.target.value })}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs text-muted">{t('stageAdmin.bestOf')}</span>
            <select className="field min-h-11" value={rule.bestOf} onChange={(event) => change(i, { bestOf: Number(event.target.value) })}>
              {BEST_OF_CHOICES.map((n) => (
                <option key={n} value={n}>
                  {t('stageAdmin.bestOfChoice', { bestOf: n })}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn-ghost min-h-11 px-3" onClick={() => onChange(rules.filter((_, j) => j !== i))} aria-label={t('stageAdmin.ruleRemove', { number: i + 1 })}>
            ✕
          </button>
        </div>
      ))}
      {rules.length < MAX_BEST_OF_RULES && (
        <button type="button" className="btn-ghost min-h-11 self-start text-sm" onClick={() => onChange([...rules, { side: sides[0] ?? '', round: '2', bestOf: 3 }])}>
          {t('stageAdmin.ruleAdd')}
        </button>
      )}
    </fieldset>
  );
}

/** The tie-breakers after points, in order (issue 57): move one up, take one out, add another. */
export function TieBreakers({ value, onChange }: { value: TieBreaker[]; onChange: (value: TieBreaker[]) => void }) {
  const id = useId();
  const left = TIE_BREAKERS.filter((breaker) => !value.includes(breaker));
  const move = (i: number) => onChange(value.map((b, j) => (j === i - 1 ? value[i]! : j === i ? value[i - 1]! : b)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">{t('stageAdmin.tieBreakers')}</legend>
      <p className="text-xs text-muted">{t('stageAdmin.tieBreakersHint')}</p>
      <ol className="flex flex-col gap-1 text-sm">
        {value.map((breaker, i) => (
          <li key={breaker} className="flex items-center gap-2 rounded-lg bg-surface-2 px-2">
            <span className="min-w-0 flex-1">
              {i + 1}. {t(`stages.tieBreaker.${breaker}`)}
            </span>
            <button type="button" className="btn-ghost min-h-11 px-3" disabled={i === 0} onClick={() => move(i)} aria-label={t('stageAdmin.tieBreakerUp', { name: t(`stages.tieBreaker.${breaker}`) })}>
              ↑
            </button>
            <button type="button" className="btn-ghost min-h-11 px-3" onClick={() => onChange(value.filter((b) => b !== breaker))} aria-label={t('stageAdmin.tieBreakerRemove', { name: t(`stages.tieBreaker.${breaker}`) })}>
              ✕
            </button>
          </li>
        ))}
      </ol>
      {left.length > 0 && (
        <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-add`}>
          <span className="text-xs text-muted">{t('stageAdmin.tieBreakerAdd')}</span>
          <select
            id={`${id}-add`}
            className="field min-h-11"
            value=""
            onChange={(event) => event.target.value && onChange([...value, event.target.value as TieBreaker])}
          >
            <option value="">—</option>
            {left.map((breaker) => (
              <option key={breaker} value={breaker}>
                {t(`stages.tieBreaker.${breaker}`)}
              </option>
            ))}
          </select>
        </label>
      )}
    </fieldset>
  );
}
