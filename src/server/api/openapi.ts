import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { ZodType } from 'zod';
import type { AppEnv } from './context.ts';
import { validationHook } from './validation.ts';

/** A sub-app for one resource; validation failures answer 400 `{ message }` in Ukrainian. */
export const router = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

export const messageBody = z.object({ message: z.string() }).openapi('Message');

/** A required JSON request body. */
export const jsonBody = <T extends ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** A JSON response. */
export const jsonResponse = <T extends ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The `{ message }` answers a route may give besides success. */
export function errors(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: 'Некоректний запит',
    401: 'Потрібно увійти',
    403: 'Недостатньо прав',
    404: 'Не знайдено',
    409: 'Конфлікт',
    413: 'Завеликий запит',
    415: 'Непідтримуваний тип',
    422: 'Неможлива дія',
    429: 'Забагато запитів',
    503: 'Сервіс недоступний',
  };
  return Object.fromEntries(statuses.map((s) => [s, jsonResponse(messageBody, descriptions[s] ?? 'Помилка')]));
}

export const bearer = [{ bearerAuth: [] }];
