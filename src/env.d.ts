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
      /**
       * The tournament's own time zone a page of it is shown in (issue 57), set by the page before
       * it renders: the layout declares it (`data-time-zone`) and the drawings write their times in
       * it. Absent or null: each reader's own zone (times rewritten in the browser).
       */
      timeZone?: string | null | undefined;
    }
  }
}
