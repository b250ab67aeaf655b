import { z } from 'zod';

// zod's own messages (the ones not rewritten by validation.ts, and environment errors) in Ukrainian.
z.config(z.locales.uk());
