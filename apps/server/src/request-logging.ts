import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** A request for a file of the web app (its assets, or a page that serves index.html): anything outside /api. */
export function isStaticFileRequest(request: Pick<FastifyRequest, 'method' | 'url'>): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !/^\/api(\/|\?|$)/.test(request.url);
}

/**
 * Fastify's request lines, with the web app's files at debug: a page load fetches a dozen assets, and at info they
 * buried the API's lines (and the e-mail links printed among them). Errors stay at their level.
 */
export class StaticFilesAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!isStaticFileRequest(request)) return super.incomingRequest(request, reply, metadata);
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error || reply.statusCode >= 500 || !isStaticFileRequest(request)) {
      return super.requestCompleted(error, request, reply, metadata);
    }
    if (!this.isLogDisabled(request)) {
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
