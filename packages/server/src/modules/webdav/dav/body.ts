import type { Readable } from 'node:stream';
import { bodyOf, type ServeRequest } from '../../../core/serve/request.js';
import { DavError } from './errors.js';

/** XML request bodies (PROPFIND, PROPPATCH, LOCK) and the bodies of methods that take none are read up to this. */
export const BODY_CAP = 1024 * 1024;

const EMPTY = Buffer.alloc(0);

/** The client went away before its request was whole: nothing to answer. */
export class ClientGone extends Error {
  constructor() {
    super('client gone');
    this.name = 'ClientGone';
  }
}

/**
 * The whole request body, at most `cap` bytes (413 beyond, decided from Content-Length when it
 * says so, else when the bytes pass it). Methods without a body read it too, so that a
 * keep-alive connection stays in step.
 */
export function readBody(req: ServeRequest, cap = BODY_CAP): Promise<Buffer> {
  const body = bodyOf(req);
  if (!body || body.readableEnded) return Promise.resolve(EMPTY);
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > cap) return Promise.reject(new DavError(413));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onGone);
      body.off('close', onGone);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        done();
        body.pause();
        reject(new DavError(413));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onGone = () => {
      done();
      reject(new ClientGone());
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onGone);
    body.once('close', onGone);
  });
}

/** The body stream of a request (an empty one for a request that cannot carry one). */
export function bodyStream(req: ServeRequest): Readable | null {
  return bodyOf(req);
}

/**
 * Keep a storage stream's late errors from becoming an unhandled 'error' event: once the request
 * is aborted the stream is destroyed (its signal), and that can happen after whoever consumed it
 * has let go. The failure that matters was already seen through the pipeline's promise.
 */
export function quiet<T extends NodeJS.EventEmitter>(stream: T): T {
  stream.on('error', () => undefined);
  return stream;
}
