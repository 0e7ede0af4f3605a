// Items and their words in the visitor's language, and the room search's matching.

/**
 * The visitor's languages, best first: `?lang=` when the address gives one, then the browser's.
 * @returns {string[]} BCP 47 tags, lower case
 */
export function visitorLanguages(search = window.location.search, browser = navigator.languages || [navigator.language]) {
  const asked = new URLSearchParams(search).get('lang');
  return [asked, ...browser].filter(Boolean).map((tag) => tag.toLowerCase());
}

/**
 * The value of metadata key `base` in the best language: `base.<tag>` for each language (the
 * full tag, then its primary subtag), then `base` itself, then `base.en`, then any `base.*`.
 * Keys are compared without case. Null when the metadata has none.
 */
export function localized(metadata, base, languages) {
  const keys = new Map(Object.keys(metadata || {}).map((key) => [key.toLowerCase(), key]));
  const value = (key) => (keys.has(key) ? metadata[keys.get(key)] : null);
  for (const tag of languages) {
    const found = value(`${base}.${tag}`) ?? value(`${base}.${tag.split('-')[0]}`);
    if (found !== null) return found;
  }
  const fallback = value(base) ?? value(`${base}.en`);
  if (fallback !== null) return fallback;
  const any = [...keys.keys()].filter((key) => key.startsWith(`${base}.`)).sort()[0];
  return any ? value(any) : null;
}

/** Whether a beacon carries content for visitors (`content` or `content.<language>`). */
export function isItem(beacon) {
  return Object.keys(beacon.metadata || {}).some((key) => key === 'content' || key.startsWith('content.'));
}

/** Text folded for matching: lower case, accents removed. */
export function folded(text) {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}

/** Whether a room name matches what the visitor typed (case and accents ignored). */
export function matches(name, query) {
  return folded(name).includes(folded(query.trim()));
}
