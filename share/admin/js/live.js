// The page's one live feed (GET /v1/stream): every panel that follows something live — the tags
// on the plan, a survey's readings and switch, a scanner's positions, a walk's readings — says
// what it follows here, and the page holds one stream for all of them instead of one per item
// (a browser allows six HTTP/1.1 connections per origin; a stream per tag starved everything
// else). When what is followed changes, the stream is reopened with Last-Event-ID, so the feeds
// it already followed lose and repeat nothing.

/** Feeds whose items are scanners' (narrowed by `scannerIDs`). */
const SCANNER_FEEDS = new Set(['position', 'measurement', 'switch']);

/**
 * The `/v1/stream` path that carries every interest, or null for none. An interest is
 * `{feed, scannerID?, tagID?}`; a scanner feed without `scannerID` follows every scanner, a
 * tagPosition one without `tagID` every tag.
 *
 * @param {{feed: string, scannerID?: string, tagID?: number}[]} interests
 * @returns {string|null}
 */
export function streamPath(interests) {
  if (interests.length === 0) return null;
  const feeds = [...new Set(interests.map((i) => i.feed))].sort();
  const params = [`feeds=${feeds.join(',')}`];
  const scannerInterests = interests.filter((i) => SCANNER_FEEDS.has(i.feed));
  if (scannerInterests.length > 0 && scannerInterests.every((i) => i.scannerID !== undefined)) {
    const ids = [...new Set(scannerInterests.map((i) => i.scannerID))].sort();
    params.push(`scannerIDs=${ids.map(encodeURIComponent).join(',')}`);
  } else if (feeds.includes('switch')) {
    throw new Error('a switch is followed by its scanner: every scanner\'s positions or readings cannot be followed beside it');
  }
  const tagInterests = interests.filter((i) => i.feed === 'tagPosition');
  if (tagInterests.length > 0 && tagInterests.every((i) => i.tagID !== undefined)) {
    params.push(`tagIDs=${[...new Set(tagInterests.map((i) => i.tagID))].sort((a, b) => a - b).join(',')}`);
  }
  return `/v1/stream?${params.join('&')}`;
}

/**
 * Whether an event (its feed and parsed data) is one `interest` asked for: the stream carries
 * the union of every interest, so each gets only its own.
 */
export function wants(interest, feed, data) {
  if (interest.feed !== feed) return false;
  if (interest.scannerID !== undefined && data.scannerID !== interest.scannerID) return false;
  if (interest.tagID !== undefined && data.tagID !== interest.tagID) return false;
  return true;
}

export class LiveFeed {
  /** @param {{stream: Function}} api the page's Api (api.js), or anything with its `stream` */
  constructor(api) {
    this.api = api;
    this.subscriptions = new Set();
    this.controller = null;
    this.lastEventId = null;
    this.reopenQueued = false;
    this.path = null;
    /** The stream at `path` has answered and is reading events. */
    this.openNow = false;
  }

  /**
   * Follows `interest` until the returned subscription is closed (or `signal` aborts);
   * `onEvent(event, data)` gets each of its events with the data parsed. `opened` resolves once
   * a stream carrying it is open, so what happens next is seen.
   *
   * @returns {{opened: Promise<void>, close: () => void}}
   */
  follow(interest, onEvent, { signal, onState } = {}) {
    let resolveOpened;
    const subscription = {
      interest, onEvent, onState, opened: new Promise((resolve) => { resolveOpened = resolve; }), resolveOpened,
      close: () => {
        if (this.subscriptions.delete(subscription)) this.queueReopen();
      },
    };
    this.subscriptions.add(subscription);
    signal?.addEventListener('abort', subscription.close, { once: true });
    this.queueReopen();
    return subscription;
  }

  /** Ends every subscription and the stream (signing out). */
  closeAll() {
    this.subscriptions.clear();
    this.queueReopen();
  }

  /** Changes made together (a survey's two interests) reopen the stream once. */
  queueReopen() {
    if (this.reopenQueued) return;
    this.reopenQueued = true;
    queueMicrotask(() => {
      this.reopenQueued = false;
      this.reopen();
    });
  }

  reopen() {
    const subscriptions = [...this.subscriptions];
    const path = streamPath(subscriptions.map((s) => s.interest));

    if (path === this.path && this.controller) {
      // The stream already carries every interest: those just added are open when it is.
      if (this.openNow) for (const s of subscriptions) s.resolveOpened();
      return;
    }
    this.controller?.abort();
    this.controller = null;
    this.openNow = false;
    this.path = path;
    if (!path) return;
    const controller = new AbortController();
    this.controller = controller;
    this.api.stream(path, {
      signal: controller.signal,
      lastEventId: this.lastEventId,
      onOpen: () => {
        this.openNow = true;
        for (const s of this.subscriptions) s.resolveOpened();
      },
      onState: (text) => { for (const s of this.subscriptions) s.onState?.(text); },
      onEvent: (event) => {
        if (controller.signal.aborted) return;
        if (event.id !== null) this.lastEventId = event.id;
        let data;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        for (const s of [...this.subscriptions]) {
          if (wants(s.interest, event.event, data)) s.onEvent(event, data);
        }
      },
    }).catch(() => {});
  }
}
