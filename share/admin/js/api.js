// switchd's v1 API as the page uses it: every request carries the admin token as a bearer
// token, errors become ApiError with switchd's code and message.
//
// Paths are written as switchd names them (`/v1/floors`) but resolved against switchd's root as
// this page sees it, never against the host's root: behind a proxy that serves switchd under a
// prefix and strips it (Home Assistant's ingress: /api/hassio_ingress/<token>/admin/ is switchd's
// /admin/), every request stays under the prefix.

/**
 * switchd's root as the browser reaches it, with its trailing slash: two folders above this
 * module, which switchd serves at /admin/js/api.js (the visitor page imports it from there too),
 * whatever prefix a proxy puts before it.
 */
export const switchdRoot = new URL('../../', import.meta.url);

/** The address of `path` (`/v1/floors`, `visit/`) under `root`, keeping `root`'s prefix. */
export function switchdURL(path, root = switchdRoot) {
  return new URL(path.replace(/^\/+/, ''), root).href;
}

/** An error answer of switchd (or the network failing: status 0). */
export class ApiError extends Error {
  /** `field`: the JSON path of the offending field, when switchd names one (a 422). */
  constructor(status, code, message, field = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** The most items switchd puts in one page of a list. */
const PAGE_LIMIT = 1000;

export class Api {
  /**
   * @param {() => string | null} token the admin token, read at each request
   * @param {() => void} onUnauthorized called when switchd answers 401 (the token is wrong or revoked)
   * @param {URL | string} root switchd's root as the browser reaches it (see switchdRoot)
   */
  constructor(token, onUnauthorized, root = switchdRoot) {
    this.token = token;
    this.onUnauthorized = onUnauthorized;
    this.root = root;
  }

  /** The address a request for `path` goes to: `path` under switchd's root (see switchdURL). */
  url(path) {
    return switchdURL(path, this.root);
  }

  headers(extra = {}) {
    const headers = { ...extra };
    const token = this.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  /** The JSON answer of one request, null for 204; throws ApiError for any other status. */
  async request(method, path, { json, body, contentType, signal } = {}) {
    const init = { method, signal, headers: this.headers({ Accept: 'application/json' }) };
    if (json !== undefined) {
      init.body = JSON.stringify(json);
      init.headers['Content-Type'] = 'application/json';
    } else if (body !== undefined) {
      init.body = body;
      if (contentType) init.headers['Content-Type'] = contentType;
    }
    let response;
    try {
      response = await fetch(this.url(path), init);
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      throw new ApiError(0, 'network', `switchd cannot be reached (${error.message})`);
    }
    if (response.status === 204) return null;
    const text = await response.text();
    let value = null;
    try {
      value = text ? JSON.parse(text) : null;
    } catch {
      value = null;
    }
    if (!response.ok) {
      if (response.status === 401) this.onUnauthorized();
      const detail = value && value.error ? value.error : { code: `http_${response.status}`, message: text || response.statusText };
      throw new ApiError(response.status, detail.code, detail.message, detail.field ?? null);
    }
    return value;
  }

  get(path, options) { return this.request('GET', path, options); }

  /**
   * Every item of a paged list (`{items, nextCursor}`: /v1/tags, /v1/scanners, /v1/beacons,
   * /v1/webhooks), following `nextCursor` a page of the largest size at a time.
   */
  async all(path) {
    const items = [];
    let cursor = null;
    do {
      const url = new URL(path, 'http://page.invalid');
      url.searchParams.set('limit', String(PAGE_LIMIT));
      if (cursor) url.searchParams.set('cursor', cursor);
      const page = await this.get(url.pathname + url.search);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  }
  post(path, json) { return this.request('POST', path, { json }); }
  patch(path, json) { return this.request('PATCH', path, { json }); }
  put(path, json) { return this.request('PUT', path, { json }); }
  delete(path) { return this.request('DELETE', path); }

  /** The body of a GET as a Blob (a plan image). */
  async blob(path) {
    const response = await fetch(this.url(path), { headers: this.headers() });
    if (!response.ok) {
      if (response.status === 401) this.onUnauthorized();
      throw new ApiError(response.status, `http_${response.status}`, `could not load ${path}`);
    }
    return response.blob();
  }

  /**
   * Follows a server-sent-event stream with fetch, so the token goes along (EventSource cannot
   * send an Authorization header). A dropped connection is reopened after a growing pause, with
   * Last-Event-ID so nothing is missed or repeated. Ends when `signal` aborts, or on a 4xx.
   *
   * @param {string} path
   * @param {{signal: AbortSignal, onEvent: (event: {id: string|null, event: string, data: string}) => void,
   *          onOpen?: () => void, onState?: (state: string) => void, lastEventId?: string|null}} handlers
   *        `lastEventId`: resume after this event of an earlier stream
   */
  async stream(path, { signal, onEvent, onOpen, onState = () => {}, lastEventId: resumeAfter = null }) {
    let lastEventId = resumeAfter;
    let pause = 500;
    while (!signal.aborted) {
      try {
        const headers = this.headers({ Accept: 'text/event-stream' });
        if (lastEventId !== null) headers['Last-Event-ID'] = lastEventId;
        const response = await fetch(this.url(path), { headers, signal, cache: 'no-store' });
        if (!response.ok) {
          if (response.status === 401) this.onUnauthorized();
          if (response.status >= 400 && response.status < 500) {
            onState(`stopped: switchd answered ${response.status}`);
            return;
          }
          throw new Error(`HTTP ${response.status}`);
        }
        onState('live');
        pause = 500;
        if (onOpen) onOpen();
        // TextDecoderStream drops a leading BOM, as the event-stream format asks.
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const parse = eventStreamParser();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const event of parse(value)) {
            if (event.id !== null) lastEventId = event.id;
            onEvent(event);
          }
        }
        onState('reconnecting');
      } catch (error) {
        if (signal.aborted) return;
        onState(`reconnecting (${error.message})`);
      }
      await sleep(pause, signal);
      pause = Math.min(pause * 2, 10000);
    }
  }
}

/**
 * The one event-stream reader of the admin page, by the rules EventSource follows (WHATWG HTML,
 * "Server-sent events"): CRLF, LF and CR end a line; a blank line dispatches the event built so
 * far if it has a data line; `:` starts a comment; data lines join with LF; the last id stays for
 * later events. Returns a function that takes the next decoded piece of the stream, cut anywhere,
 * and returns the events it completed; an event the stream ends before its blank line is dropped.
 *
 * @returns {(text: string) => {id: string|null, event: string, data: string}[]}
 */
export function eventStreamParser() {
  let line = '';
  let afterCR = false;
  let lastId = '';
  let type = '';
  let data = null;
  const endLine = (events) => {
    if (line === '') {
      if (data !== null) events.push({ id: lastId === '' ? null : lastId, event: type || 'message', data: data.join('\n') });
      type = '';
      data = null;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') (data ??= []).push(value);
    else if (field === 'id' && !value.includes('\0')) lastId = value;
    line = '';
  };
  return (text) => {
    const events = [];
    for (const char of text) {
      if (afterCR && char === '\n') {
        afterCR = false;
        continue;
      }
      afterCR = char === '\r';
      if (char === '\r' || char === '\n') {
        endLine(events);
      } else {
        line += char;
      }
    }
    return events;
  };
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
