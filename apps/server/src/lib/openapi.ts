import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * Route config that describes, in the OpenAPI document only, the body of a route that reads it itself (multipart
 * parts as they arrive, a raw zip). It cannot be the route's `schema.body`: Fastify would validate the parsed body
 * against it, and a multipart body is never parsed into `request.body`.
 */
export function documentedBody(
  contentTypes: readonly string[],
  body: z.ZodType,
): { swaggerTransform: SwaggerTransform } {
  return {
    swaggerTransform: (input) =>
      jsonSchemaTransform({ ...input, schema: { ...input.schema, body, consumes: [...contentTypes] } }),
  };
}
