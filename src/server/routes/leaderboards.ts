import { router } from '../openapi.ts';

/** Filled in by the issue that builds this resource. */
export const leaderboardsRoutes = router();
