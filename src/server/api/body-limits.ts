// How large a request body the API takes, in one place: the app enforces it (api/app.ts).
import { EVIDENCE_FILE_BYTES, EVIDENCE_FILES_MAX, MAX_UPLOAD_BYTES } from '../../lib/api/limits.ts';
import { IMPORT_BYTES_MAX } from '../../lib/domain/participant-import.ts';

/** JSON bodies are small; uploads get their own, larger limit where they are accepted. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** An upload's limit: a picture, with room for the multipart envelope around it. */
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;
/** A match's screenshots (issue 58): up to four pictures of 5 MB in one upload, with the envelope. */
export const EVIDENCE_BODY_LIMIT = EVIDENCE_FILES_MAX * EVIDENCE_FILE_BYTES + 64 * 1024;

/**
 * An import of participants (issue 60): a CSV file's text in JSON. Its limit lets the route read a
 * file just past `IMPORT_BYTES_MAX` and answer 413 itself, in words that name the file's limit; a
 * file in Cyrillic that JSON escaped (\uXXXX, three times the bytes) still fits.
 */
export const IMPORT_BODY_LIMIT = 3 * IMPORT_BYTES_MAX + 64 * 1024;

/** Whether a request is the one JSON body that takes `IMPORT_BODY_LIMIT`: `POST /api/tournaments/{id}/participants/import`. */
export const isParticipantImport = (method: string, path: string): boolean => method === 'POST' && /^\/api\/tournaments\/[^/]+\/participants\/import\/?$/.test(path);

/** Whether a request is the one upload that takes `EVIDENCE_BODY_LIMIT`: `POST /api/matches/{id}/evidence`. */
export const isEvidenceUpload = (method: string, path: string): boolean => method === 'POST' && /^\/api\/matches\/[^/]+\/evidence\/?$/.test(path);

/**
 * Whether a body is an upload: `multipart/form-data`, which only a route that takes a picture reads
 * (every other route answers such a body 400 or 415 without reading it).
 */
export const isUpload = (contentType: string | undefined): boolean => /^\s*multipart\/form-data\b/i.test(contentType ?? '');

