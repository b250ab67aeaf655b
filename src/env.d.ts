/// <reference types="astro/client" />
import type { KyInstance } from 'ky';

declare global {
  interface ImportMetaEnv {
    /** Where the browser finds the API when it is not on the same origin. */
    readonly PUBLIC_API_URL?: string;
  }

  namespace App {
    interface Locals {
      /** The API client for server-rendered pages: calls the Hono app in-process. */
      api: KyInstance;
      /**
       * The site's address for absolute links in pages (canonical, previews, RSS, sitemap): SITE_URL
       * when set, so that no request's Host header can put another site's address into a page a
       * shared cache may keep; otherwise the address the reader used.
       */
      origin: string;
      /**
       * The query parameters the page or public read takes: an address naming any other is
       * answered but not held (src/server/serving/answer-cache.ts), so `?r=<random>` fills nothing.
       */
      acceptsQuery?: readonly string[];
    }
  }
}
