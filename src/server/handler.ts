/** The types that tie a family's handlers to its operations, so a missing handler does not compile. */
import type { z } from 'zod';
import type { AnyOp, OpResult } from '../contract/op.js';
import type { Actor } from './access.js';

/** What a handler is given besides its input: the actor (the state, the caller) and the request's address. */
export interface HandlerCtx extends Actor {
  /** `http://host:port` of this sandbox, for `urls`. */
  baseUrl: string;
  /** The client's connection, when the request came on a socket: a long write (an import) stops when it closes. */
  connection?: object;
  /** Set by a write that found nothing to change (audit/model.ts `unlessSame`): it records no audit event. */
  unchanged?: boolean;
}

interface HandlerInput<O extends AnyOp> {
  params: z.output<O['params']>;
  query: z.output<O['query']>;
  body: z.output<O['body']>;
}

/** A reply with a status other than the operation's default (e.g. an upsert's 200 or 201). */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

export type Handler<O extends AnyOp> = (
  ctx: HandlerCtx,
  input: HandlerInput<O>,
) => OpResult<O> | Reply<OpResult<O>> | Promise<OpResult<O> | Reply<OpResult<O>>>;

export type Handlers<T extends Record<string, AnyOp>> = { [K in keyof T]: Handler<T[K]> };
