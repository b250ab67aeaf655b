/** Whether a request's method may change something: anything but a read (GET, HEAD) or OPTIONS. */
export const isWrite = (method: string | undefined): boolean => method !== undefined && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
