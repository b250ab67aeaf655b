import type { InputHTMLAttributes } from 'react';

/** A labelled input: the label is always visible and tied to the input. */
export function Field({ label, id, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string }) {
  return (
    <label htmlFor={id} className="flex flex-col gap-1 text-sm font-medium">
      {label}
      <input id={id} className="field" {...input} />
    </label>
  );
}
