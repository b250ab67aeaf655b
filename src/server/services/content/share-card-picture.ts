import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import satori from 'satori';
import sharp from 'sharp';
import { BRAND_NAME } from '../../../lib/picture-texts.ts';
import { SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH } from '../../../lib/domain/share-card.ts';
import type { ShareCardKind } from '../../../lib/domain/share-card.ts';

/**
 * What a share card (issue 23) says, in one language: the words are put together from the
 * page's data (`share-cards.ts`), and this module draws them. Two requests whose cards would say the same
 * thing get the same `digest`, which is the picture's ETag and its key in the picture cache, so a
 * changed result, title or rating draws a new picture and nothing else does.
 */
export interface ShareCardContent {
  kind: ShareCardKind;
  /** «Турнір», «Матч»…: the pill in the corner. */
  label: string;
  /** The small line over the title: the game, the tournament of a match. */
  eyebrow: string | null;
  /** The big line; empty for a match, whose sides are drawn instead. */
  title: string;
  /** A match's two sides and its score («2:1», «–:–» before it is played). */
  versus: { a: string; b: string; score: string } | null;
  /** The coloured line: the champion, the status, the rating. */
  highlight: string | null;
  /** Quieter lines under it: the date, the teams. */
  details: string[];
  /** The site's host, drawn in the corner. */
  site: string;
}

/**
 * Draws a share card (issue 23, decision 017): satori lays the card out like a small flexbox page
 * and writes it as SVG with every letter as a path, from the Inter font files of
 * `@fontsource/inter` (their Latin and Cyrillic subsets), so the picture needs no font on the
 * machine; sharp turns the SVG into a PNG.
 */

/** Raised when the drawing changes, so every card's digest (its ETag and cache key) changes with it. */
export const SHARE_CARD_DRAWING = 1;

const BRAND = { cyan: '#22d3ee', violet: '#8b5cf6', pink: '#ec4899', ink: '#0b0f1a', text: '#f8fafc', muted: '#cbd5e1', quiet: '#94a3b8' };

/** The subsets loaded: the languages of the site and of the names people give (Latin with accents, Cyrillic). */
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext'] as const;
const WEIGHTS = [400, 700, 800] as const;
const FAMILY = 'Inter';

const require = createRequire(import.meta.url);

type Font = { name: string; data: Buffer; weight: (typeof WEIGHTS)[number]; style: 'normal' };

interface Fonts {
  fonts: Font[];
  /** Whether a code point has a glyph in a loaded subset. */
  covers: (codePoint: number) => boolean;
}

/** Parses the package's `U+0000-00FF,U+0131` ranges. */
function ranges(list: string): [number, number][] {
  return list.split(',').map((range) => {
    const [from, to = from] = range.trim().replace(/^U\+/i, '').split('-');
    return [Number.parseInt(from!, 16), Number.parseInt(to!, 16)];
  });
}

let loading: Promise<Fonts> | undefined;

/** The font files, read once per process. Each subset is a family of its own: satori falls back through them glyph by glyph. */
function loadFonts(): Promise<Fonts> {
  loading ??= (async () => {
    const unicode = JSON.parse(await readFile(require.resolve('@fontsource/inter/unicode.json'), 'utf8')) as Record<string, string>;
    const covered = SUBSETS.flatMap((subset) => ranges(unicode[subset] ?? ''));
    const fonts = await Promise.all(
      SUBSETS.flatMap((subset) =>
        WEIGHTS.map(async (weight): Promise<Font> => ({
          name: `${FAMILY} ${subset}`,
          data: await readFile(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`)),
          weight,
          style: 'normal',
        })),
      ),
    );
    return { fonts, covers: (codePoint) => covered.some(([from, to]) => codePoint >= from && codePoint <= to) };
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * The text as it can be drawn: on one line, without the characters no loaded font has (emoji,
 * other scripts), which satori would draw as boxes.
 */
export function drawableText(text: string, covers: (codePoint: number) => boolean): string {
  return Array.from(text)
    .filter((char) => /\s/.test(char) || covers(char.codePointAt(0)!))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A satori node: the shape of a React element, without React. */
interface Node {
  type: string;
  props: { style?: Record<string, unknown>; children?: Child | Child[]; src?: string; width?: number; height?: number };
}
type Child = Node | string | null;

const box = (style: Record<string, unknown>, ...children: Child[]): Node => ({ type: 'div', props: { style: { display: 'flex', ...style }, children } });

/** The site's mark, as public/favicon.svg draws it (a test keeps the two the same), beside the name. */
export const SHARE_CARD_MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><defs><linearGradient id="mark-fav" x1="0" y1="0" x2="1" y2="1">' +
  `<stop offset="0" stop-color="${BRAND.cyan}"/><stop offset="0.55" stop-color="${BRAND.violet}"/><stop offset="1" stop-color="${BRAND.pink}"/></linearGradient></defs>` +
  `<polygon points="32,2 58,17 58,47 32,62 6,47 6,17" fill="url(#mark-fav)"/><polygon points="32,10 51,21 51,43 32,54 13,43 13,21" fill="${BRAND.ink}"/>` +
  '<polyline points="19,40 32,26 45,40" fill="none" stroke="url(#mark-fav)" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>' +
  `<circle cx="32" cy="45" r="3.5" fill="${BRAND.cyan}"/></svg>`;
const MARK = `data:image/svg+xml;utf8,${encodeURIComponent(SHARE_CARD_MARK)}`;

/** The card's padding, and the width left for its words. */
const PAD_X = 72;
const INNER = SHARE_CARD_WIDTH - 2 * PAD_X;

/** Each side of a match: half of what the score and the gaps beside it leave. */
const SIDE = (INNER - 200 - 2 * 32) / 2;

/** A long title gets a smaller size, so two lines hold it. */
const titleSize = (title: string) => (title.length > 60 ? 54 : title.length > 32 ? 64 : 76);

/** One line of text cut with an ellipsis where it does not fit. */
const line = (text: string, style: Record<string, unknown>): Node =>
  box({ display: 'block', overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', maxWidth: INNER, ...style }, text);

/** The card: the site's name (in its two colours, as on the logo) and the label, the words, the host. */
function tree(card: ShareCardContent, brand: readonly [string, string]): Node {
  const versus = card.versus;
  return box(
    {
      // satori measures boxes as CSS does by default: padding outside the width, unless told.
      boxSizing: 'border-box',
      width: SHARE_CARD_WIDTH,
      height: SHARE_CARD_HEIGHT,
      flexDirection: 'column',
      padding: `56px ${PAD_X}px 52px`,
      color: BRAND.text,
      fontFamily: SUBSETS.map((subset) => `${FAMILY} ${subset}`).join(', '),
      backgroundColor: BRAND.ink,
      backgroundImage: `radial-gradient(circle at 12% 8%, rgba(139, 92, 246, 0.5), rgba(139, 92, 246, 0) 55%), radial-gradient(circle at 95% 100%, rgba(34, 211, 238, 0.38), rgba(34, 211, 238, 0) 55%)`,
    },
    box(
      { alignItems: 'center', justifyContent: 'space-between', width: INNER, flexShrink: 0 },
      box(
        { alignItems: 'center', gap: 18 },
        { type: 'img', props: { src: MARK, width: 60, height: 60 } },
        box({ fontSize: 38, fontWeight: 800, letterSpacing: 0.5 }, box({}, brand[0]), box({ color: BRAND.cyan }, brand[1])),
      ),
      box(
        { fontSize: 24, fontWeight: 700, letterSpacing: 2, textTransform: 'uppercase', padding: '10px 22px', borderRadius: 999, border: `2px solid ${BRAND.cyan}`, color: BRAND.cyan },
        card.label,
      ),
    ),
    box(
      { flexDirection: 'column', justifyContent: 'center', flexGrow: 1, flexShrink: 1, flexBasis: 0, minHeight: 0, width: INNER, gap: 14 },
      card.eyebrow ? line(card.eyebrow, { fontSize: 32, fontWeight: 700, color: BRAND.quiet }) : null,
      versus
        ? box(
            { alignItems: 'center', width: INNER, gap: 32, marginTop: 8, marginBottom: 8 },
            box({ flex: 1, justifyContent: 'flex-end', minWidth: 0 }, line(versus.a, { fontSize: 46, fontWeight: 800, maxWidth: SIDE })),
            box(
              { fontSize: 64, fontWeight: 800, color: BRAND.ink, backgroundColor: BRAND.cyan, borderRadius: 20, padding: '8px 28px', flexShrink: 0 },
              versus.score,
            ),
            box({ flex: 1, minWidth: 0 }, line(versus.b, { fontSize: 46, fontWeight: 800, maxWidth: SIDE })),
          )
        : box({ display: 'block', fontSize: titleSize(card.title), fontWeight: 800, lineHeight: 1.12, lineClamp: 2, maxWidth: INNER }, card.title),
      card.highlight ? line(card.highlight, { fontSize: 38, fontWeight: 700, color: BRAND.cyan, marginTop: 10 }) : null,
      ...card.details.map((detail) => line(detail, { fontSize: 30, color: BRAND.muted })),
    ),
    box(
      { alignItems: 'center', justifyContent: 'space-between', width: INNER, flexShrink: 0 },
      box({ width: 240, height: 6, borderRadius: 3, backgroundImage: `linear-gradient(90deg, ${BRAND.cyan}, ${BRAND.pink})` }),
      line(card.site, { fontSize: 24, color: BRAND.quiet }),
    ),
  );
}

/** The card as a PNG of SHARE_CARD_WIDTH × SHARE_CARD_HEIGHT. */
export async function drawShareCard(content: ShareCardContent): Promise<Uint8Array<ArrayBuffer>> {
  const { fonts, covers } = await loadFonts();
  const text = (value: string) => drawableText(value, covers);
  const card: ShareCardContent = {
    ...content,
    label: text(content.label),
    eyebrow: content.eyebrow && text(content.eyebrow),
    title: text(content.title),
    versus: content.versus && { a: text(content.versus.a), b: text(content.versus.b), score: text(content.versus.score) },
    highlight: content.highlight && text(content.highlight),
    details: content.details.map(text),
    site: text(content.site),
  };
  // satori's types name React elements; the plain objects above are what React elements are made of.
  const svg = await satori(tree(card, BRAND_NAME) as unknown as Parameters<typeof satori>[0], { width: SHARE_CARD_WIDTH, height: SHARE_CARD_HEIGHT, fonts });
  return new Uint8Array(await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer());
}
