import type http from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { nodeHeaders } from '../node-response.ts';
import { attachStream, MAX_UNSENT_BYTES, type StreamSink, type Topic } from '../services/live/live-streams.ts';

/**
 * Event streams answered on Node's own response (api/on-node.ts, decision 047): the stream route
 * takes the stream's place and leaves it here (`holdForHead`); the head is written once the app's
 * middlewares have finished the answer (its security headers, HSTS, the device cookie), and only
 * then do the frames begin, written to the response as they come.
 */

interface Held {
  topic: Topic;
  /** Gives the stream's place back (api/routes/live.ts `takePlace`). */
  release: () => void;
}

/** Streams whose route answered, waiting for the app's middlewares to finish their answer's head. */
const held = new WeakMap<http.ServerResponse, Held>();

/** Called by a stream route served on Node (`outgoing` in its bindings): the stream starts once its head has gone. */
export function holdForHead(outgoing: http.ServerResponse, topic: Topic, release: () => void): void {
  held.set(outgoing, { topic, release });
}

/** A held stream that will not be sent after all (the app failed after its route): its place is given back. */
export function dropHeld(outgoing: http.ServerResponse): void {
  held.get(outgoing)?.release();
  held.delete(outgoing);
}

/**
 * Relays `topic`'s frames to `outgoing` until the reader leaves (the connection closes), stops
 * reading (more than MAX_UNSENT_BYTES waiting in the response: it is cut off), or the server shuts
 * down (the answer ends). How the body is framed on the wire (chunked, or ended by closing for
 * HTTP/1.0) is Node's to choose.
 */
function relay(outgoing: http.ServerResponse, { topic, release }: Held): void {
  let open = true;
  let detach = () => {};
  const leave = () => {
    if (!open) return;
    open = false;
    detach();
    release();
  };
  const sink: StreamSink = {
    write: (bytes) => {
      if (!open) return;
      if (outgoing.writableLength > MAX_UNSENT_BYTES) {
        leave();
        outgoing.destroy();
      } else outgoing.write(bytes);
    },
    end: () => {
      if (!open) return;
      leave();
      outgoing.end();
    },
  };
  outgoing.once('close', leave);
  detach = attachStream(topic, sink);
  if (outgoing.destroyed) leave();
}

/** What `sendHead` answers when it sent the head itself: @hono/node-server's word for it. */
export const SENT = RESPONSE_ALREADY_SENT;

/**
 * The answer `response` to a request on `outgoing`: a held stream has its head written here and its
 * frames start (the listener is then told the answer is sent); any other answer goes as it is.
 */
export function sendHead(outgoing: http.ServerResponse, response: Response): Response {
  const stream = held.get(outgoing);
  if (!stream) return response;
  held.delete(outgoing);
  // A HEAD request is answered with the head alone, and holds no stream.
  if (response.status !== 200 || outgoing.req.method === 'HEAD' || outgoing.headersSent || outgoing.destroyed) {
    stream.release();
    return response;
  }
  outgoing.writeHead(200, nodeHeaders(response));
  relay(outgoing, stream);
  return SENT;
}
