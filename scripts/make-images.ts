/**
 * Draws the site's static pictures (logo, favicon, Open Graph card, default and demo game art,
 * demo team emblems and news pictures) as SVG and renders the raster ones with sharp.
 *
 *   node scripts/make-images.ts           # every picture
 *   node scripts/make-images.ts icons/    # only those under public/icons/ (any prefix of a path)
 *
 * Everything is abstract geometry and type: no trademarked logos. Text uses DejaVu Sans, which
 * sharp's SVG renderer (librsvg) finds on the system and which covers Cyrillic. A game's picture
 * (public/games/<id>.jpg, 640×360, and <id>-400.jpg, 400×225, for phones) carries only the game's
 * own name: one picture serves readers of every language, so it holds no words of one. Runs with
 * the same sharp draw the same bytes; commit only the pictures a change meant to touch.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import sharp from 'sharp';
import { BRAND_NAME, GAME_TITLES, OG_TAGLINE, type ShippedGame } from '../src/lib/picture-texts.ts';

const PUBLIC = resolve(import.meta.dirname, '..', 'public');
const FONT = 'DejaVu Sans, sans-serif';
const JPEG_QUALITY = 75;

// ---------------------------------------------------------------- helpers

function svg(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}

function ensureDir(file: string) {
  mkdirSync(dirname(file), { recursive: true });
}

const written: string[] = [];

/** The path prefix the command line names: only pictures under it are written (all without one). */
const only = process.argv[2];
const wanted = (rel: string) => !only || rel.startsWith(only);

function writeText(rel: string, content: string) {
  if (!wanted(rel)) return;
  const file = join(PUBLIC, rel);
  ensureDir(file);
  writeFileSync(file, content.trim() + '\n');
  written.push(rel);
}

/** `width`: a smaller copy (a phone's two-column grid is about 180–210 px wide: 400 px at DPR 2, not 640). */
async function writeJpeg(rel: string, source: string, width?: number) {
  if (!wanted(rel)) return;
  const file = join(PUBLIC, rel);
  ensureDir(file);
  const image = sharp(Buffer.from(source)).flatten({ background: '#0b0f1a' });
  await (width ? image.resize(width) : image).jpeg({ quality: JPEG_QUALITY, mozjpeg: true }).toFile(file);
  written.push(rel);
}

async function writePng(rel: string, source: string) {
  if (!wanted(rel)) return;
  const file = join(PUBLIC, rel);
  ensureDir(file);
  await sharp(Buffer.from(source)).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toFile(file);
  written.push(rel);
}

/** An app icon: full colour (a palette would band the mark's gradient), drawn at `size` from its SVG. */
async function writeIcon(rel: string, source: string) {
  if (!wanted(rel)) return;
  const file = join(PUBLIC, rel);
  ensureDir(file);
  await sharp(Buffer.from(source)).png({ compressionLevel: 9, effort: 10 }).toFile(file);
  written.push(rel);
}

/** A deterministic pseudo-random sequence, so every run draws the same pictures. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// ---------------------------------------------------------------- brand

const BRAND = { cyan: '#22d3ee', violet: '#8b5cf6', pink: '#ec4899', ink: '#0b0f1a', text: '#f8fafc' };

/** The mark: a hexagonal arena with a rising chevron, in a 64×64 box. */
function mark(idSuffix: string): string {
  return `
  <defs>
    <linearGradient id="mark-${idSuffix}" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${BRAND.cyan}"/>
      <stop offset="0.55" stop-color="${BRAND.violet}"/>
      <stop offset="1" stop-color="${BRAND.pink}"/>
    </linearGradient>
  </defs>
  <polygon points="32,2 58,17 58,47 32,62 6,47 6,17" fill="url(#mark-${idSuffix})"/>
  <polygon points="32,10 51,21 51,43 32,54 13,43 13,21" fill="${BRAND.ink}"/>
  <polyline points="19,40 32,26 45,40" fill="none" stroke="url(#mark-${idSuffix})" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
  <circle cx="32" cy="45" r="3.5" fill="${BRAND.cyan}"/>`;
}

function logoSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="64" viewBox="0 0 320 64" role="img" aria-label="${BRAND_NAME.join('')}">
  ${mark('logo')}
  <text x="76" y="43" font-family="${FONT}" font-size="31" font-weight="700" fill="${BRAND.text}" letter-spacing="0.5">${BRAND_NAME[0]}<tspan fill="${BRAND.cyan}">${BRAND_NAME[1]}</tspan></text>
</svg>`;
}

function faviconSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">${mark('fav')}</svg>`;
}

/**
 * The installed app's icons (public/manifest.webmanifest, issue 60): the mark at `size`, filling
 * `share` of it, on the site's dark ground (`ground`: a phone's launcher and iOS want an opaque
 * icon) or on nothing. A maskable icon keeps the mark inside the middle 80 % circle every launcher
 * shape leaves whole, so `share` stays at most 0.6 there.
 */
function appIconSvg(size: number, share: number, ground: boolean, idSuffix: string): string {
  const scale = (size * share) / 64;
  const offset = (size - 64 * scale) / 2;
  return svg(size, size, `${ground ? `<rect width="${size}" height="${size}" fill="#0a0c16"/>` : ''}<g transform="translate(${offset} ${offset}) scale(${scale})">${mark(idSuffix)}</g>`);
}

/** The notification badge (Android's status bar): the mark's outline and chevron in white; only its shape shows. */
function badgeSvg(size: number): string {
  const scale = size / 64;
  return svg(
    size,
    size,
    `<g transform="scale(${scale})" fill="none" stroke="#ffffff" stroke-linecap="round" stroke-linejoin="round">
  <polygon points="32,5 55,18.5 55,45.5 32,59 9,45.5 9,18.5" stroke-width="6"/>
  <polyline points="19,40 32,27 45,40" stroke-width="7"/>
</g>`,
  );
}

function ogSvg(): string {
  const W = 1200;
  const H = 630;
  const rnd = random(7);
  const stars = Array.from({ length: 70 }, () => {
    const x = (rnd() * W).toFixed(0);
    const y = (rnd() * H).toFixed(0);
    const r = (rnd() * 1.6 + 0.4).toFixed(1);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" opacity="${(rnd() * 0.5 + 0.15).toFixed(2)}"/>`;
  }).join('');
  return svg(
    W,
    H,
    `
  <defs>
    <radialGradient id="glow1" cx="0.18" cy="0.2" r="0.6"><stop offset="0" stop-color="${BRAND.violet}" stop-opacity="0.55"/><stop offset="1" stop-color="${BRAND.violet}" stop-opacity="0"/></radialGradient>
    <radialGradient id="glow2" cx="0.9" cy="0.95" r="0.6"><stop offset="0" stop-color="${BRAND.cyan}" stop-opacity="0.45"/><stop offset="1" stop-color="${BRAND.cyan}" stop-opacity="0"/></radialGradient>
    <linearGradient id="bar" x1="0" x2="1"><stop offset="0" stop-color="${BRAND.cyan}"/><stop offset="1" stop-color="${BRAND.pink}"/></linearGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="${BRAND.ink}"/>
  <rect width="${W}" height="${H}" fill="url(#glow1)"/>
  <rect width="${W}" height="${H}" fill="url(#glow2)"/>
  ${stars}
  <g transform="translate(510 90) scale(2.8)">${mark('og')}</g>
  <text x="600" y="400" text-anchor="middle" font-family="${FONT}" font-size="104" font-weight="700" fill="${BRAND.text}">${BRAND_NAME[0]}<tspan fill="${BRAND.cyan}">${BRAND_NAME[1]}</tspan></text>
  <text x="600" y="470" text-anchor="middle" font-family="${FONT}" font-size="40" fill="#cbd5e1">${OG_TAGLINE}</text>
  <rect x="480" y="515" width="240" height="6" rx="3" fill="url(#bar)"/>`,
  );
}

// ---------------------------------------------------------------- games

const GW = 640;
const GH = 360;

/** A game's picture: its art under a shade, and its name large at the bottom left; no words in any language, so one picture serves every reader. */
function gameFrame(defs: string, art: string, game: ShippedGame, titleSize: number): string {
  return svg(
    GW,
    GH,
    `
  <defs>
    ${defs}
    <linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0.35" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.65"/></linearGradient>
  </defs>
  ${art}
  <rect width="${GW}" height="${GH}" fill="url(#shade)"/>
  <text x="36" y="${GH - 36}" font-family="${FONT}" font-size="${titleSize}" font-weight="700" fill="#fff" letter-spacing="1">${escape(GAME_TITLES[game])}</text>`,
  );
}

function cs2Svg(): string {
  const stripes = Array.from({ length: 14 }, (_, i) => {
    const x = -200 + i * 70;
    return `<polygon points="${x},0 ${x + 28},0 ${x + 28 + 360},${GH} ${x + 360},${GH}" fill="#fff" opacity="${i % 3 === 0 ? 0.07 : 0.035}"/>`;
  }).join('');
  return gameFrame(
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f59e0b"/><stop offset="0.45" stop-color="#b45309"/><stop offset="1" stop-color="#1e293b"/></linearGradient>`,
    `<rect width="${GW}" height="${GH}" fill="url(#bg)"/>${stripes}
  <g transform="translate(470 130)" fill="none" stroke="#fff" stroke-opacity="0.55">
    <circle r="86" stroke-width="3"/><circle r="50" stroke-width="2" stroke-opacity="0.4"/>
    <line x1="-120" y1="0" x2="-22" y2="0" stroke-width="3"/><line x1="22" y1="0" x2="120" y2="0" stroke-width="3"/>
    <line x1="0" y1="-120" x2="0" y2="-22" stroke-width="3"/><line x1="0" y1="22" x2="0" y2="120" stroke-width="3"/>
    <circle r="4" fill="#fff" fill-opacity="0.8" stroke="none"/>
  </g>`,
    'cs2',
    92,
  );
}

function valorantSvg(): string {
  const rnd = random(11);
  const shards = Array.from({ length: 16 }, () => {
    const x = rnd() * GW;
    const y = rnd() * GH;
    const s = 30 + rnd() * 110;
    const a = rnd() * Math.PI * 2;
    const p = [0, 2.3, 4.1].map((o) => `${(x + Math.cos(a + o) * s).toFixed(0)},${(y + Math.sin(a + o) * s * 0.7).toFixed(0)}`);
    return `<polygon points="${p.join(' ')}" fill="#fff" opacity="${(0.04 + rnd() * 0.08).toFixed(2)}"/>`;
  }).join('');
  return gameFrame(
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="0.6"><stop offset="0" stop-color="#0f172a"/><stop offset="0.55" stop-color="#9f1239"/><stop offset="1" stop-color="#fb7185"/></linearGradient>`,
    `<rect width="${GW}" height="${GH}" fill="url(#bg)"/>${shards}
  <g fill="#fff">
    <polygon points="430,30 470,30 410,230 370,230" fill-opacity="0.5"/>
    <polygon points="500,30 540,30 480,230 440,230" fill-opacity="0.3"/>
    <polygon points="570,30 610,30 550,230 510,230" fill-opacity="0.15"/>
  </g>`,
    'valorant',
    78,
  );
}

function lolSvg(): string {
  const hex = (cx: number, cy: number, r: number) =>
    Array.from({ length: 6 }, (_, i) => {
      const a = (Math.PI / 3) * i + Math.PI / 6;
      return `${(cx + Math.cos(a) * r).toFixed(1)},${(cy + Math.sin(a) * r).toFixed(1)}`;
    }).join(' ');
  const rings = [150, 120, 90, 60]
    .map((r, i) => `<polygon points="${hex(480, 150, r)}" fill="none" stroke="#fcd34d" stroke-opacity="${0.2 + i * 0.15}" stroke-width="${2 + i}"/>`)
    .join('');
  return gameFrame(
    `<linearGradient id="bg" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="#0c1222"/><stop offset="0.55" stop-color="#0e7490"/><stop offset="1" stop-color="#0891b2"/></linearGradient>
     <radialGradient id="gold" cx="0.75" cy="0.42" r="0.45"><stop offset="0" stop-color="#fbbf24" stop-opacity="0.5"/><stop offset="1" stop-color="#fbbf24" stop-opacity="0"/></radialGradient>`,
    `<rect width="${GW}" height="${GH}" fill="url(#bg)"/><rect width="${GW}" height="${GH}" fill="url(#gold)"/>${rings}`,
    'lol',
    52,
  );
}

function dotaSvg(): string {
  const lanes = `
  <path d="M-20 330 Q 320 300 660 -20" fill="none" stroke="#fff" stroke-opacity="0.18" stroke-width="26"/>
  <path d="M-20 120 Q 80 40 240 -20" fill="none" stroke="#fff" stroke-opacity="0.1" stroke-width="18"/>
  <path d="M380 380 Q 560 320 660 200" fill="none" stroke="#fff" stroke-opacity="0.1" stroke-width="18"/>`;
  const towers = [
    [300, 196],
    [410, 150],
    [505, 96],
    [590, 42],
  ]
    .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9" fill="#fecaca" fill-opacity="0.75"/><circle cx="${x}" cy="${y}" r="20" fill="none" stroke="#fecaca" stroke-opacity="0.35" stroke-width="2"/>`)
    .join('');
  return gameFrame(
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#450a0a"/><stop offset="0.5" stop-color="#991b1b"/><stop offset="1" stop-color="#111827"/></linearGradient>
     <radialGradient id="ember" cx="0.82" cy="0.18" r="0.5"><stop offset="0" stop-color="#f97316" stop-opacity="0.55"/><stop offset="1" stop-color="#f97316" stop-opacity="0"/></radialGradient>`,
    `<rect width="${GW}" height="${GH}" fill="url(#bg)"/><rect width="${GW}" height="${GH}" fill="url(#ember)"/>${lanes}${towers}`,
    'dota2',
    88,
  );
}

/** A battle royale's map from above: the safe zone closing in circles, the plane's line across. */
function pubgSvg(): string {
  const zones = [
    [430, 150, 150, 0.18],
    [470, 135, 95, 0.3],
    [492, 122, 55, 0.5],
    [500, 118, 26, 0.75],
  ]
    .map(([x, y, r, o]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="#fff" stroke-opacity="${o}" stroke-width="${r! > 100 ? 3 : 2}"/>`)
    .join('');
  return gameFrame(
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3f6212"/><stop offset="0.5" stop-color="#a16207"/><stop offset="1" stop-color="#1c1917"/></linearGradient>
     <radialGradient id="zone" cx="0.78" cy="0.33" r="0.35"><stop offset="0" stop-color="#fde68a" stop-opacity="0.35"/><stop offset="1" stop-color="#fde68a" stop-opacity="0"/></radialGradient>`,
    `<rect width="${GW}" height="${GH}" fill="url(#bg)"/><rect width="${GW}" height="${GH}" fill="url(#zone)"/>
  <path d="M-20 40 L660 250" stroke="#fff" stroke-opacity="0.35" stroke-width="3" stroke-dasharray="14 10"/>${zones}`,
    'pubgm',
    72,
  );
}

function defaultGameSvg(): string {
  const grid = Array.from({ length: 17 }, (_, i) => `<line x1="${i * 40}" y1="0" x2="${i * 40}" y2="${GH}"/>`).join('') +
    Array.from({ length: 10 }, (_, i) => `<line x1="0" y1="${i * 40}" x2="${GW}" y2="${i * 40}"/>`).join('');
  return svg(
    GW,
    GH,
    `
  <defs>
    <radialGradient id="bg" cx="0.5" cy="0.45" r="0.75"><stop offset="0" stop-color="#1f2937"/><stop offset="1" stop-color="#0b0f1a"/></radialGradient>
  </defs>
  <rect width="${GW}" height="${GH}" fill="url(#bg)"/>
  <g stroke="#334155" stroke-opacity="0.45" stroke-width="1">${grid}</g>
  <g transform="translate(320 170)" fill="none" stroke="#64748b" stroke-width="7" stroke-linejoin="round" stroke-linecap="round">
    <path d="M-95 -45 H95 Q135 -45 140 0 L150 60 Q155 95 120 95 Q100 95 80 65 L65 45 H-65 L-80 65 Q-100 95 -120 95 Q-155 95 -150 60 L-140 0 Q-135 -45 -95 -45 Z"/>
    <line x1="-85" y1="0" x2="-45" y2="0"/><line x1="-65" y1="-20" x2="-65" y2="20"/>
    <circle cx="60" cy="-10" r="7" fill="#64748b" stroke="none"/><circle cx="88" cy="12" r="7" fill="#64748b" stroke="none"/>
  </g>`,
  );
}

// ---------------------------------------------------------------- teams

interface Emblem {
  shape: string;
  from: string;
  to: string;
  symbol: string;
}

const SHAPES = {
  shield: 'M128 16 L224 48 V120 Q224 196 128 240 Q32 196 32 120 V48 Z',
  circle: 'M128 16 A112 112 0 1 1 127.9 16 Z',
  hexagon: 'M128 14 L226 71 V185 L128 242 L30 185 V71 Z',
  diamond: 'M128 10 L246 128 L128 246 L10 128 Z',
  badge: 'M128 12 L156 40 H204 V88 L236 128 L204 168 V216 H156 L128 244 L100 216 H52 V168 L20 128 L52 88 V40 H100 Z',
  crest: 'M40 28 H216 V132 Q216 204 128 240 Q40 204 40 132 Z',
};

const SYMBOLS = {
  bolt: '<polygon points="140,56 84,140 124,140 112,204 172,112 132,112" fill="#fff"/>',
  star: '<polygon points="128,58 146,108 198,108 156,140 172,192 128,160 84,192 100,140 58,108 110,108" fill="#fff"/>',
  chevrons:
    '<polyline points="78,150 128,104 178,150" fill="none" stroke="#fff" stroke-width="20" stroke-linecap="round" stroke-linejoin="round"/><polyline points="78,192 128,146 178,192" fill="none" stroke="#fff" stroke-opacity="0.6" stroke-width="20" stroke-linecap="round" stroke-linejoin="round"/>',
  flame: '<path d="M128 52 C150 92 188 110 180 158 C174 192 150 208 128 208 C104 208 78 192 76 160 C74 128 98 116 104 88 C116 104 118 118 128 124 C134 100 126 78 128 52 Z" fill="#fff"/>',
  crown: '<polygon points="70,176 62,96 102,128 128,80 154,128 194,96 186,176" fill="#fff"/><rect x="70" y="184" width="116" height="16" rx="4" fill="#fff"/>',
  eye: '<path d="M52 128 Q128 52 204 128 Q128 204 52 128 Z" fill="#fff"/><circle cx="128" cy="128" r="26" fill="#0b0f1a"/><circle cx="136" cy="120" r="8" fill="#fff"/>',
};

const EMBLEMS: Emblem[] = [
  { shape: SHAPES.shield, from: '#2563eb', to: '#facc15', symbol: SYMBOLS.bolt },
  { shape: SHAPES.hexagon, from: '#dc2626', to: '#f97316', symbol: SYMBOLS.flame },
  { shape: SHAPES.circle, from: '#7c3aed', to: '#ec4899', symbol: SYMBOLS.star },
  { shape: SHAPES.crest, from: '#059669', to: '#22d3ee', symbol: SYMBOLS.chevrons },
  { shape: SHAPES.diamond, from: '#0f172a', to: '#64748b', symbol: SYMBOLS.eye },
  { shape: SHAPES.badge, from: '#b45309', to: '#fde047', symbol: SYMBOLS.crown },
];

function emblemSvg(e: Emblem, n: number): string {
  return svg(
    256,
    256,
    `
  <defs><linearGradient id="e${n}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${e.from}"/><stop offset="1" stop-color="${e.to}"/></linearGradient></defs>
  <path d="${e.shape}" fill="url(#e${n})" stroke="#fff" stroke-opacity="0.85" stroke-width="8" stroke-linejoin="round"/>
  ${e.symbol}`,
  );
}

// ---------------------------------------------------------------- news

const NW = 800;
const NH = 450;

function newsStageSvg(): string {
  const beams = [
    [120, '#22d3ee'],
    [300, '#8b5cf6'],
    [500, '#ec4899'],
    [680, '#22d3ee'],
  ]
    .map(
      ([x, c]) =>
        `<polygon points="${x},0 ${Number(x) + 16},0 ${Number(x) + 150},${NH} ${Number(x) - 134},${NH}" fill="${c}" opacity="0.16"/>`,
    )
    .join('');
  return svg(
    NW,
    NH,
    `
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#020617"/><stop offset="1" stop-color="#1e1b4b"/></linearGradient>
    <linearGradient id="cup" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fde68a"/><stop offset="1" stop-color="#d97706"/></linearGradient>
  </defs>
  <rect width="${NW}" height="${NH}" fill="url(#bg)"/>${beams}
  <ellipse cx="400" cy="400" rx="330" ry="34" fill="#8b5cf6" opacity="0.35"/>
  <g transform="translate(400 250)">
    <path d="M-70 -110 H70 V-60 Q70 0 0 20 Q-70 0 -70 -60 Z" fill="url(#cup)"/>
    <path d="M-70 -95 H-105 Q-110 -40 -62 -30 M70 -95 H105 Q110 -40 62 -30" fill="none" stroke="#fbbf24" stroke-width="10"/>
    <rect x="-12" y="18" width="24" height="56" fill="#d97706"/>
    <rect x="-56" y="72" width="112" height="24" rx="4" fill="#fbbf24"/>
  </g>`,
  );
}

function newsGridSvg(): string {
  const lines: string[] = [];
  for (let i = -12; i <= 12; i++) lines.push(`<line x1="${400 + i * 18}" y1="210" x2="${400 + i * 120}" y2="${NH}"/>`);
  for (let j = 0; j < 9; j++) {
    const y = 210 + (NH - 210) * (j / 8) ** 1.8;
    lines.push(`<line x1="0" y1="${y.toFixed(1)}" x2="${NW}" y2="${y.toFixed(1)}"/>`);
  }
  return svg(
    NW,
    NH,
    `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0f0a2e"/><stop offset="1" stop-color="#6d28d9"/></linearGradient>
    <linearGradient id="sun" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fde047"/><stop offset="1" stop-color="#ec4899"/></linearGradient>
  </defs>
  <rect width="${NW}" height="${NH}" fill="url(#sky)"/>
  <clipPath id="sunclip"><circle cx="400" cy="190" r="110"/></clipPath>
  <circle cx="400" cy="190" r="110" fill="url(#sun)"/>
  <g fill="#0f0a2e" clip-path="url(#sunclip)">${[140, 160, 178, 194].map((y, i) => `<rect x="280" y="${y}" width="240" height="${4 + i * 2}"/>`).join('')}</g>
  <rect y="210" width="${NW}" height="${NH - 210}" fill="#0b0620"/>
  <g stroke="#22d3ee" stroke-opacity="0.7" stroke-width="2">${lines.join('')}</g>`,
  );
}

function newsWavesSvg(): string {
  const waves = Array.from({ length: 9 }, (_, i) => {
    const y = 90 + i * 38;
    return `<path d="M0 ${y} C 160 ${y - 60}, 320 ${y + 60}, 480 ${y} S 720 ${y - 50}, 800 ${y}" fill="none" stroke="${i % 2 ? '#22d3ee' : '#a78bfa'}" stroke-opacity="${(0.25 + i * 0.07).toFixed(2)}" stroke-width="${3 + (i % 3)}"/>`;
  }).join('');
  const rnd = random(3);
  const dots = Array.from({ length: 40 }, () => `<circle cx="${(rnd() * NW).toFixed(0)}" cy="${(rnd() * NH).toFixed(0)}" r="${(1 + rnd() * 3).toFixed(1)}" fill="#e0f2fe" opacity="${(0.2 + rnd() * 0.5).toFixed(2)}"/>`).join('');
  return svg(
    NW,
    NH,
    `
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#042f2e"/><stop offset="0.5" stop-color="#0c4a6e"/><stop offset="1" stop-color="#1e1b4b"/></linearGradient></defs>
  <rect width="${NW}" height="${NH}" fill="url(#bg)"/>${waves}${dots}`,
  );
}

// ---------------------------------------------------------------- main

writeText('logo.svg', logoSvg());
writeText('favicon.svg', faviconSvg());
await writePng('og-default.png', ogSvg());
await writeJpeg('default_game.jpg', defaultGameSvg());
for (const [name, draw] of [['cs2', cs2Svg], ['valorant', valorantSvg], ['lol', lolSvg], ['dota2', dotaSvg], ['pubgm', pubgSvg]] as const) {
  await writeJpeg(`games/${name}.jpg`, draw());
  await writeJpeg(`games/${name}-400.jpg`, draw(), 400);
}
for (const [i, emblem] of EMBLEMS.entries()) await writePng(`teams/${i + 1}.png`, emblemSvg(emblem, i + 1));
await writeJpeg('news/1.jpg', newsStageSvg());
await writeJpeg('news/2.jpg', newsGridSvg());
await writeJpeg('news/3.jpg', newsWavesSvg());
await writeIcon('icons/icon-192.png', appIconSvg(192, 0.9, false, 'i192'));
await writeIcon('icons/icon-512.png', appIconSvg(512, 0.9, false, 'i512'));
await writeIcon('icons/maskable-512.png', appIconSvg(512, 0.6, true, 'm512'));
await writeIcon('icons/apple-touch-icon.png', appIconSvg(180, 0.72, true, 'a180'));
await writeIcon('icons/badge-96.png', badgeSvg(96));

for (const rel of written) console.log(`${rel.padEnd(22)} ${(statSync(join(PUBLIC, rel)).size / 1024).toFixed(1)} KB`);
