import type { APIRoute } from 'astro';
import { getApp } from '../../server/runtime.ts';

export const prerender = false;

/** Hands every /api request to the Hono app, with the caller's address for rate limits. */
export const ALL: APIRoute = async ({ request, clientAddress }) => (await getApp()).fetch(request, { clientAddress });
