import { z } from 'zod';
import type { RouteDef } from './registry.js';

/** OpenAPI 3.1 document built from THE route registry, schemas from the shared zod shapes. */
export function buildOpenApi(routes: readonly RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const op: Record<string, unknown> = {
      summary: r.summary,
      security: r.access === 'public' ? [] : [{ token: [] }],
      responses: {
        200: { description: '`ret` 0, or an error `ret` with `msg`' },
        ...(r.access === 'token' ? { 401: { description: '`ret` -1: missing, expired or revoked token' } } : {}),
      },
    };
    if (r.query) {
      const schema = z.toJSONSchema(r.query, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      op.parameters = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
        name,
        in: 'query',
        required: schema.required?.includes(name) ?? false,
        schema: s,
      }));
    }
    if (r.body) {
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: z.toJSONSchema(r.body, { io: 'input', unrepresentable: 'any' }) } },
      };
    }
    paths[r.path] ??= {};
    paths[r.path][r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Lucky console admin API', version },
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'login token or API token (lkt_…)' },
      },
    },
    paths,
  };
}
