/**
 * Event streams (server-sent events, api/routes/live.ts) are answers that stay open for as long as
 * a page does. They skip what every other read goes through: the read queue (a stream would hold
 * one of its few places for hours; the route caps streams itself), the answer cache and the ETag
 * digest (both read the whole body, which never ends) and compression (which would buffer events).
 */

const EVENT_STREAM = /^\/api\/(tournaments\/[^/?#]+|users\/me)\/events\/?(\?|$)/;

/** Whether a request path (with or without its query) is an event stream's. */
export const isEventStreamPath = (path: string): boolean => EVENT_STREAM.test(path);
