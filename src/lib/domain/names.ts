// Unicode TR39's prototype table (confusables.txt), as the `unhomoglyph` package ships it: one
// entry per character that looks like another, mapped to the string it looks like.
import prototypes from 'unhomoglyph/data.json' with { type: 'json' };

/**
 * Names players and teams go by: how they are normalised, which characters they may not hold, and
 * when two of them look alike. Server and islands use the same rules (lib/api/auth.ts, teams.ts).
 */

/** The form a name is stored, shown and compared in: NFKC (fullwidth letters, ligatures and compatibility forms become plain ones), trimmed. */
export const normalizeName = (value: string): string => value.normalize('NFKC').trim();

/**
 * Characters that show as nothing, or change how the text around them is shown: format characters
 * (zero-width space and joiners, bidi overrides, soft hyphen, Cf), controls (Cc), line and paragraph
 * separators (Zl, Zp), default-ignorable code points (variation selectors, tags, the Hangul fillers
 * U+3164, U+115F, U+1160, U+FFA0) and the blank Braille pattern U+2800, which renders as a space.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800\u3164\u115F\u1160\uFFA0]/u;

/** Whether nothing of a text can be seen: it holds only spaces and characters that show as nothing. */
export const isBlank = (value: string): boolean => value.replace(new RegExp(`${INVISIBLE.source}|\\s`, 'gu'), '') === '';

/** Whether a name holds a character that cannot be seen (or changes how the rest is shown), before or after normalising. */
export const hasInvisibleCharacters = (value: string): boolean => INVISIBLE.test(value) || INVISIBLE.test(value.normalize('NFKC'));

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Case folded as far as it goes: lower(upper(…)) until nothing changes (ß → ss, ẞ → ß → ss, ϴ → θ). */
function fold(value: string): string {
  let current = value;
  for (let round = 0; round < 4; round++) {
    const next = current.toUpperCase().toLowerCase();
    if (next === current) break;
    current = next;
  }
  return current;
}

const table = prototypes as Record<string, string>;

/**
 * TR39's skeleton of a text: NFD, default-ignorable characters dropped, each character replaced by
 * its prototype, NFD again. Case-sensitive, as the data is: Greek Κ and Cyrillic К give K, but Greek
 * κ and Cyrillic к give ĸ; I gives l while i stays i.
 */
function skeleton(text: string): string {
  let out = '';
  for (const c of text.normalize('NFD').replace(DEFAULT_IGNORABLE, '')) out += table[c] ?? c;
  return out.normalize('NFD');
}

/** The two skeletons a name is compared by; see `nameSkeletons`. */
export interface NameSkeletons {
  /** Of the name in lower case: catches `аdmin` (Cyrillic а), `rn` for `m`, `1` for `l`. */
  lower: string;
  /** Of the name in upper case: catches `ΚozakSniper` (Greek Κ) and `КОТ` (Cyrillic К, Т) for `KOT`. */
  upper: string;
}

/**
 * The confusable skeletons of a name (Unicode TR39), taken of its NFKC form in lower case and in
 * upper case. Names are unique whatever their case, and TR39 compares case-sensitively: some
 * look-alikes exist only in lower case (Cyrillic а, `rn` and `m`), others only in upper case (Greek
 * Κ and Cyrillic К are K, while κ and к are not k). Two names pass for each other when either
 * skeleton is the same. Both depend only on the name's case-folded form, so they do not change with
 * its case. For comparing only, never shown.
 */
export function nameSkeletons(name: string): NameSkeletons {
  const folded = fold(name.normalize('NFKC'));
  return { lower: skeleton(folded), upper: skeleton(folded.toUpperCase()) };
}
