import { type ReactNode, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { ACHIEVEMENT_NAME_MAX, GAME_NAME_MAX, ICON_MAX, IMAGE_ADDRESS_MAX, STATS_DESCRIPTION_MAX, STAT_DISPLAY_NAME_MAX } from '../../lib/api/limits.ts';
import { CONDITION_MAX_LENGTH, FIELD_NAME_MAX } from '../../lib/domain/stat-fields.ts';
import { Modal } from '../../components/Modal.tsx';
import { type AchievementInput, type SetupInput, type StatFieldInput } from '../../lib/api/game-management.ts';
import {
  ACHIEVEMENT_RARITIES,
  DEFAULT_ACHIEVEMENT_ICON,
  DEFAULT_STAT_ICON,
  STAT_CATEGORIES,
  STAT_FIELD_TYPES,
  STATS_TEMPLATES,
  type AchievementRarity,
  type StatCategory,
  type StatFieldType,
  type StatsTemplate,
} from '../../lib/domain/stat-fields.ts';
import { t, type MessageKey } from '../../lib/i18n/index.ts';

/** A labelled select over fixed values, each shown through the catalog. */
function SelectField<T extends string>({
  id,
  name,
  label,
  values,
  labelOf,
  defaultValue,
}: {
  id: string;
  name: string;
  label: string;
  values: readonly T[];
  labelOf: (value: T) => string;
  defaultValue: T;
}) {
  return (
    <label htmlFor={id} className="flex flex-col gap-1 text-sm font-medium">
      {label}
      <select id={id} name={name} className="field" defaultValue={defaultValue}>
        {values.map((value) => (
          <option key={value} value={value}>
            {labelOf(value)}
          </option>
        ))}
      </select>
    </label>
  );
}

const text = (data: FormData, name: string) => String(data.get(name) ?? '').trim();
const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T => (values.includes(value as T) ? (value as T) : fallback);

export const templateLabel = (template: StatsTemplate) => t(`gameManagement.template.${template}` as MessageKey);
export const fieldTypeLabel = (type: StatFieldType) => t(`gameManagement.fieldType.${type}` as MessageKey);
export const categoryLabel = (category: StatCategory) => t(`gameManagement.category.${category}` as MessageKey);
export const rarityLabel = (rarity: AchievementRarity) => t(`gameManagement.rarity.${rarity}` as MessageKey);

interface FormProps<T> {
  busy: boolean;
  /** Sends the form; resolves true when saved (the form is then cleared). */
  onSubmit: (body: T) => Promise<boolean>;
  /** Reports a form not filled in enough to send. */
  onInvalid: (message: string) => void;
}

/**
 * Game setup (SPEC §2 Game statistics admin): opened for a game without a config, prefilled with
 * its name and picture and the template «default».
 */
export function SetupDialog({
  open,
  name,
  image,
  busy,
  onSubmit,
  onInvalid,
  notice,
  onClose,
}: FormProps<SetupInput> & { open: boolean; name: string; image: string; notice: ReactNode; onClose: () => void }) {
  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const body = { name: text(data, 'name'), image: text(data, 'image'), template: oneOf(STATS_TEMPLATES, text(data, 'template'), 'default') };
    if (!body.name) return onInvalid(t('gameManagement.nameRequired'));
    void onSubmit(body);
  }

  return (
    <Modal open={open} title={t('gameManagement.setupTitle')} onClose={onClose}>
      {open && (
        <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label={t('gameManagement.setupTitle')}>
          <Field label={t('gameManagement.setupName')} id="game-stats-setup-name" name="name" defaultValue={name} limit={GAME_NAME_MAX} />
          <Field label={t('gameManagement.setupImage')} id="game-stats-setup-image" name="image" defaultValue={image} limit={IMAGE_ADDRESS_MAX} placeholder="/games/cs2.jpg" />
          <SelectField id="game-stats-setup-template" name="template" label={t('gameManagement.setupTemplate')} values={STATS_TEMPLATES} labelOf={templateLabel} defaultValue="default" />
          {notice}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? t('manage.busy') : t('gameManagement.setupSubmit')}
            </button>
            <button type="button" className="btn-ghost" onClick={onClose}>
              {t('manage.cancel')}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/** The add-stat-field form: fieldName and displayName required; type, category, icon defaulted (SPEC §3, §5). */
export function StatFieldForm({ busy, onSubmit, onInvalid }: FormProps<StatFieldInput>) {
  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const body: StatFieldInput = {
      fieldName: text(data, 'fieldName'),
      displayName: text(data, 'displayName'),
      fieldType: oneOf(STAT_FIELD_TYPES, text(data, 'fieldType'), 'number'),
      category: oneOf(STAT_CATEGORIES, text(data, 'category'), 'general'),
      isMainStat: data.get('isMainStat') === 'on',
      description: text(data, 'description'),
      icon: text(data, 'icon'),
    };
    if (!body.fieldName || !body.displayName) return onInvalid(t('gameManagement.fieldRequired'));
    void onSubmit(body).then((saved) => {
      if (saved) form.reset();
    });
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-lg border border-line p-3 md:grid-cols-2" aria-labelledby="game-stats-field-form-title">
      <h3 id="game-stats-field-form-title" className="font-semibold md:col-span-2">
        {t('gameManagement.addFieldTitle')}
      </h3>
      <div className="flex flex-col gap-1">
        <Field
          label={t('gameManagement.fieldNameLabel')}
          id="game-stats-field-name"
          name="fieldName"
          className="font-mono"
          limit={FIELD_NAME_MAX}
          autoComplete="off"
          spellCheck={false}
          placeholder="headshots"
          aria-describedby="game-stats-field-name-hint"
        />
        <p id="game-stats-field-name-hint" className="text-xs text-muted">
          {t('gameManagement.fieldNameHint')}
        </p>
      </div>
      <Field label={t('gameManagement.displayNameLabel')} id="game-stats-field-display" name="displayName" limit={STAT_DISPLAY_NAME_MAX} placeholder={t('gameManagement.displayNamePlaceholder')} />
      <SelectField id="game-stats-field-type" name="fieldType" label={t('gameManagement.fieldTypeLabel')} values={STAT_FIELD_TYPES} labelOf={fieldTypeLabel} defaultValue="number" />
      <SelectField id="game-stats-field-category" name="category" label={t('gameManagement.categoryLabel')} values={STAT_CATEGORIES} labelOf={categoryLabel} defaultValue="general" />
      <Field label={t('gameManagement.iconLabel')} id="game-stats-field-icon" name="icon" defaultValue={DEFAULT_STAT_ICON} limit={ICON_MAX} />
      <label htmlFor="game-stats-field-main" className="flex items-center gap-2 self-end py-2 text-sm font-medium">
        <input id="game-stats-field-main" name="isMainStat" type="checkbox" className="size-4 accent-primary" />
        {t('gameManagement.isMainStatLabel')}
      </label>
      <div className="md:col-span-2">
        <Field label={t('gameManagement.descriptionLabel')} id="game-stats-field-description" name="description" limit={STATS_DESCRIPTION_MAX} />
      </div>
      <div className="md:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? t('manage.busy') : t('gameManagement.addField')}
        </button>
      </div>
    </form>
  );
}

/**
 * The add-achievement form: name, description and condition required; icon 🏆 and rarity common
 * by default. The hint lists every name the condition may use; the server checks the condition.
 */
export function AchievementForm({ busy, variables, onSubmit, onInvalid }: FormProps<AchievementInput> & { variables: readonly string[] }) {
  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const body: AchievementInput = {
      name: text(data, 'name'),
      description: text(data, 'description'),
      condition: text(data, 'condition'),
      icon: text(data, 'icon'),
      rarity: oneOf(ACHIEVEMENT_RARITIES, text(data, 'rarity'), 'common'),
    };
    if (!body.name || !body.description || !body.condition) return onInvalid(t('gameManagement.achievementRequired'));
    void onSubmit(body).then((saved) => {
      if (saved) form.reset();
    });
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-lg border border-line p-3 md:grid-cols-2" aria-labelledby="game-stats-achievement-form-title">
      <h3 id="game-stats-achievement-form-title" className="font-semibold md:col-span-2">
        {t('gameManagement.addAchievementTitle')}
      </h3>
      <Field label={t('gameManagement.achievementNameLabel')} id="game-stats-achievement-name" name="name" limit={ACHIEVEMENT_NAME_MAX} placeholder="Headhunter" />
      <Field label={t('gameManagement.descriptionLabel')} id="game-stats-achievement-description" name="description" limit={STATS_DESCRIPTION_MAX} />
      <div className="flex flex-col gap-1 md:col-span-2">
        <Field
          label={t('gameManagement.conditionLabel')}
          id="game-stats-achievement-condition"
          name="condition"
          className="font-mono"
          limit={CONDITION_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          placeholder="kills >= 100"
          aria-describedby="game-stats-condition-hint game-stats-condition-variables"
        />
        <p id="game-stats-condition-hint" className="text-xs text-muted">
          {t('gameManagement.conditionHint')}
        </p>
        <p id="game-stats-condition-variables" className="flex flex-wrap items-center gap-1 text-xs text-muted">
          {t('gameManagement.conditionVariables')}
          {variables.map((name) => (
            <code key={name} className="rounded bg-surface-2 px-1.5 py-0.5 text-fg">
              {name}
            </code>
          ))}
        </p>
      </div>
      <Field label={t('gameManagement.iconLabel')} id="game-stats-achievement-icon" name="icon" defaultValue={DEFAULT_ACHIEVEMENT_ICON} limit={ICON_MAX} />
      <SelectField id="game-stats-achievement-rarity" name="rarity" label={t('gameManagement.rarityLabel')} values={ACHIEVEMENT_RARITIES} labelOf={rarityLabel} defaultValue="common" />
      <div className="md:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? t('manage.busy') : t('gameManagement.addAchievement')}
        </button>
      </div>
    </form>
  );
}
