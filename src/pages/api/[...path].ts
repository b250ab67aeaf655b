import type { APIRoute } from 'astro';
import { t } from '../../lib/i18n/index.ts';
import { getApp } from '../../server/runtime.ts';

export const prerender = false;

/** Hands every /api request to the Hono app, with the caller's address for rate limits. */
export const ALL: APIRoute = async (context) => {
  let clientAddress: string;
  try {
    clientAddress = context.clientAddress;
  } catch {
    // The caller hung up before its request got here, so its socket has no address left. Nobody
    // reads this answer, and guessing an address would let such requests skip the per-address limits.
    return Response.json({ message: t('error.connectionClosed') }, { status: 400 });
  }
  // The locals carry what the route declares of itself to the answer cache (src/middleware.ts).
  return (await getApp()).fetch(context.request, { clientAddress, locals: context.locals });
};
