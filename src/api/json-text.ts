/**
 * JSON request bodies are text, and text must be well-formed Unicode: bytes that are not
 * UTF-8, and lone UTF-16 surrogates (`"\ud800"` is valid JSON but not text), are refused
 * with `invalid` naming each field, never stored altered (the platform's decoder would
 * quietly turn bad bytes into U+FFFD). So is U+0000, which PostgreSQL cannot store (the rules
 * for parsed text: schemas/text.ts). One check for every route, run before the route's
 * schema, so no schema has to repeat it (request-checks.ts runs it first).
 */
import type { Problem } from '../errors.js';
import { malformedUtf8Offsets } from '../runtime/utf8.js';
import { jsonTextMayHoldNonText, stringProblems, textProblems } from '../schemas/text.js';

const NOT_UTF8 = 'is not valid UTF-8 text: send the text encoded as UTF-8';

/**
 * The fields whose text is not UTF-8: each malformed byte is decoded as a character the
 * body does not otherwise contain, so the parsed document shows exactly which strings held one.
 */
function malformedFields(bytes: Uint8Array, offsets: number[]): string[] {
  const lenient = new TextDecoder().decode(bytes);
  let code = 0xe000;
  while (lenient.includes(String.fromCodePoint(code))) code++;
  const marker = String.fromCodePoint(code);
  const decoder = new TextDecoder();
  let text = '';
  let from = 0;
  for (const at of offsets) {
    text += decoder.decode(bytes.subarray(from, at)) + marker;
    from = at + 1;
  }
  text += decoder.decode(bytes.subarray(from));
  try {
    const paths = stringProblems(JSON.parse(text), (s) => (s.includes(marker) ? NOT_UTF8 : null)).map((p) => p.path);
    return paths.length > 0 ? paths : ['(body)'];
  } catch {
    return ['(body)']; // bad bytes outside any string: the body is not JSON either
  }
}

/** Problems with the text of a JSON body (bytes as received), or [] with the parsed value. */
export function checkJsonText(bytes: Uint8Array): { problems: Problem[]; text: string; parsed?: unknown } {
  let text: string;
  try {
    // The platform's strict decoder refuses exactly what malformedUtf8Offsets finds (WHATWG
    // UTF-8 is RFC 3629), natively: the byte walk runs only to name the fields of a bad body.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const offsets = malformedUtf8Offsets(bytes);
    return { problems: malformedFields(bytes, offsets.length > 0 ? offsets : [0]).map((path) => ({ path, message: NOT_UTF8 })), text: '' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problems: [], text }; // malformed JSON: the route's validator answers it, as for any body
  }
  return { problems: jsonTextMayHoldNonText(text) ? textProblems(parsed) : [], text, parsed };
}
