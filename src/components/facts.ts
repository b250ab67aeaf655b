/*
 * A run of short facts («Dota 2 · 21 груд. · Соло») that wraps as its box allows with no «·» left at
 * the end or the start of a line: each fact carries its separator before it, and the run is shifted
 * left by one separator's width inside a box that clips it, so the separator of whatever begins a
 * line is cut off. Markup: <p class={FACTS}><span class={FACTS_ROW}><span class={FACT}>…</span>…</span></p>.
 */

/** The clipping box. */
export const FACTS = 'block overflow-hidden';
/** The run inside it, one separator's width to the left. */
export const FACTS_ROW = '-ml-4 flex flex-wrap items-center gap-y-1';
/** A fact, its «·» before it. */
export const FACT = "whitespace-nowrap before:inline-block before:w-4 before:text-center before:font-normal before:text-muted before:content-['·'_/_'']";
/** A fact that is a badge of its own: the separator's room, no dot. */
export const FACT_SPACED = "inline-flex before:inline-block before:w-4 before:content-['']";
