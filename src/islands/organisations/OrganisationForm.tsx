import { type SubmitEvent } from 'react';
import { Field, TextAreaField } from '../../components/Field.tsx';
import { LOGO_URL_MAX, type Organisation, type OrganisationInput } from '../../lib/api/organisations.ts';
import { LINK_KINDS, LINK_MAX, ORGANISATION_DESCRIPTION_MAX, ORGANISATION_NAME_MAX, SLUG_MAX, type LinkKind } from '../../lib/domain/organisation.ts';
import { t } from '../../lib/i18n/index.ts';

interface Props {
  /** The organisation being changed; a blank form founds one. */
  organisation?: Organisation;
  busy: boolean;
  submitLabel: string;
  onSubmit: (body: OrganisationInput) => void;
}

/**
 * An organisation's profile (issue 56): name, page address, description, logo and links. The server
 * checks every rule again and answers in the reader's language; empty fields are left out.
 */
export function OrganisationForm({ organisation, busy, submitLabel, onSubmit }: Props) {
  const prefix = organisation ? `org-${organisation._id}` : 'org-new';

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const links = Object.fromEntries(LINK_KINDS.map((kind) => [kind, text(`link-${kind}`)]).filter(([, value]) => value)) as Partial<Record<LinkKind, string>>;
    onSubmit({
      name: text('name'),
      ...(text('slug') ? { slug: text('slug') } : {}),
      description: text('description'),
      logoUrl: text('logoUrl') || null,
      links,
    });
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <Field label={t('org.manage.name')} id={`${prefix}-name`} name="name" required limit={ORGANISATION_NAME_MAX} defaultValue={organisation?.name ?? ''} />
      <Field
        label={t('org.manage.slug')}
        id={`${prefix}-slug`}
        name="slug"
        limit={SLUG_MAX}
        defaultValue={organisation?.slug ?? ''}
        autoCapitalize="none"
        spellCheck={false}
        pattern="[a-z0-9-]*"
      />
      <TextAreaField
        label={t('org.manage.descriptionLabel')}
        id={`${prefix}-description`}
        name="description"
        rows={4}
        limit={ORGANISATION_DESCRIPTION_MAX}
        defaultValue={organisation?.description ?? ''}
      />
      <Field label={t('org.manage.logo')} id={`${prefix}-logo`} name="logoUrl" type="url" limit={LOGO_URL_MAX} defaultValue={organisation?.logoUrl ?? ''} />
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 font-semibold">{t('org.links')}</legend>
        {LINK_KINDS.map((kind) => (
          <Field
            key={kind}
            label={t(`org.link.${kind}`)}
            id={`${prefix}-link-${kind}`}
            name={`link-${kind}`}
            type="url"
            limit={LINK_MAX}
            defaultValue={organisation?.links[kind] ?? ''}
            placeholder="https://"
          />
        ))}
      </fieldset>
      <button type="submit" className="btn-primary self-start" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
