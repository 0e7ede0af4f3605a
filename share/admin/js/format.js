// How the page words what switchd answers, and how it reads what the admin types: pure, no DOM
// (unit-tested by Tests/Pages/format.test.mjs). Everything here returns text, shown with
// textContent, never as HTML.

/** An API failure as the admin reads it: switchd's message, the field it names, and its code. */
export function problemText(error) {
  if (!error) return '';
  const message = String(error.message || error);
  if (!error.code) return message;
  const field = error.field ? `; field ${error.field}` : '';
  return `${message} (${error.code}${field})`;
}

/** A scanner as listed: its name, and its ID when the name differs. */
export function scannerLabel(scanner) {
  return scanner.name && scanner.name !== scanner.id ? `${scanner.name} (${scanner.id})` : scanner.id;
}

/** A signed number of decibels to the tenth: "+1.5 dB", "−6.0 dB", "0.0 dB". */
export function decibels(value) {
  const text = Math.abs(value).toFixed(1);
  if (text === '0.0') return '0.0 dB';
  return `${value > 0 ? '+' : '−'}${text} dB`;
}

/** A fixed scanner's receive offset: the one in use, the estimate and the override. */
export function offsetText(placement) {
  const estimate = placement.estimatedReceiveOffset !== undefined && placement.estimatedReceiveOffset !== null
    ? `estimated ${decibels(placement.estimatedReceiveOffset)} from ${placement.calibrationSamples} samples`
    : 'not estimated yet (no registered beacon heard)';
  const override = placement.receiveOffsetOverride !== undefined && placement.receiveOffsetOverride !== null
    ? `; overridden: ${decibels(placement.receiveOffsetOverride)}` : '';
  return `Receive offset in use ${decibels(placement.receiveOffset)} (${estimate}${override}).`;
}

/** Flat metadata as lines `key = value`, keys sorted (languages by suffix: `content.fr`). */
export function metadataToText(metadata) {
  return Object.keys(metadata || {}).sort().map((key) => `${key} = ${metadata[key]}`).join('\n');
}

/**
 * Lines `key = value` (blank lines skipped; the first `=` splits) as flat metadata. Throws an
 * Error naming the line for a line without `=`, an empty key or a key given twice.
 */
export function metadataFromText(text) {
  const metadata = {};
  const lines = String(text || '').split(/\r\n|\r|\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const equals = line.indexOf('=');
    const key = equals < 0 ? '' : line.slice(0, equals).trim();
    if (equals < 0 || key === '') throw new Error(`Content line ${index + 1}: write it as key = value (e.g. content.fr = Bonjour).`);
    if (Object.hasOwn(metadata, key)) throw new Error(`Content line ${index + 1}: "${key}" is given twice.`);
    metadata[key] = line.slice(equals + 1).trim();
  });
  return metadata;
}

/** The languages a beacon's content is given in: `content` → "default", `content.fr` → "fr". */
export function contentLanguages(metadata) {
  return Object.keys(metadata || {})
    .filter((key) => key === 'content' || key.startsWith('content.'))
    .map((key) => (key === 'content' ? 'default' : key.slice('content.'.length)))
    .sort();
}

/** A beacon as listed: its content's name when it has one, else uuid/major/minor. */
/**
 * A beacon's or tag's battery and health as the Beacons card words them (docs/fleet-health.md):
 * its Eddystone-TLM battery in mV, "low" below switchd's threshold, and "silent" or "faded" as
 * switchd found them from the sightings; '' when nothing is known.
 */
export function healthText(emitter) {
  const parts = [];
  const telemetry = emitter.telemetry;
  if (telemetry && telemetry.batteryMillivolts != null) {
    parts.push(`battery ${telemetry.batteryMillivolts} mV${telemetry.batteryLow ? ' (low)' : ''}`);
  } else if (telemetry?.batteryLow) {
    parts.push('battery low');
  }
  if (emitter.health?.silent) parts.push('silent');
  if (emitter.health?.faded) parts.push('faded');
  return parts.join(', ');
}

/** The presence event kinds about a beacon's health (docs/fleet-health.md). */
export const BEACON_HEALTH_KINDS = ['batteryLow', 'beaconSilent', 'beaconFaded', 'beaconNewScanner'];

/**
 * One line of the Beacons card's event list: when, which beacon (by `beaconLabel` of the
 * beacon in `beacons` with the event's `beaconID`, else its ID), what happened, and for
 * `beaconNewScanner` the scanner that heard it.
 */
export function beaconEventText(event, beacons) {
  const beacon = beacons.find((b) => b.id === event.beaconID);
  const name = beacon ? beaconLabel(beacon) : `beacon ${event.beaconID}`;
  const what = {
    batteryLow: 'battery low',
    beaconSilent: 'silent: no scanner that heard it hears it',
    beaconFaded: 'faded: its scanners hear it weaker',
    beaconNewScanner: `heard by scanner ${event.scannerID}, which had not heard it`,
  }[event.kind] ?? event.kind;
  return `${event.time.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')} ${name}: ${what}`;
}

/**
 * The dashboard's fleet health: each offline scanner (with when it was last heard from, or that
 * it never reported) and each beacon that needs a look (`needsAttention`), as
 * `{ kind: 'scanner'|'beacon', id, text }`, scanners first, each group in ID order. Empty when
 * every scanner is online and no beacon needs a look.
 */
export function fleetHealthLines(scanners, beacons) {
  const offline = scanners.filter((scanner) => !scanner.online).sort((a, b) => a.id.localeCompare(b.id)).map((scanner) => ({
    kind: 'scanner',
    id: scanner.id,
    text: `${scannerLabel(scanner)}: offline, ${scanner.lastSeen ? `last heard ${scanner.lastSeen.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}` : 'never reported'}`,
  }));
  const failing = beacons.filter(needsAttention).sort((a, b) => a.id - b.id).map((beacon) => ({
    kind: 'beacon',
    id: beacon.id,
    text: `${beaconLabel(beacon)}: ${healthText(beacon)}`,
  }));
  return [...offline, ...failing];
}

/** Whether the Beacons card should mark `emitter` as needing a look. */
export function needsAttention(emitter) {
  return Boolean(emitter.telemetry?.batteryLow || emitter.health?.silent || emitter.health?.faded);
}

export function beaconLabel(beacon) {
  const identity = `${beacon.uuid.toLowerCase()} ${beacon.major}/${beacon.minor}`;
  const name = beacon.metadata?.name;
  return name ? `${name} (${identity})` : identity;
}

/** The kinds of tag identity the page writes, with how the admin types each. */
export const IDENTITY_KINDS = {
  address: { label: 'Bluetooth address', hint: 'aa:bb:cc:dd:ee:ff' },
  ibeacon: { label: 'iBeacon', hint: 'uuid/major/minor' },
  'eddystone-uid': { label: 'Eddystone-UID', hint: 'namespace (20 hex)/instance (12 hex)' },
  altbeacon: { label: 'AltBeacon', hint: 'beacon ID (40 hex)' },
};

/**
 * A tag identity from its kind and the text typed (see IDENTITY_KINDS); switchd checks the
 * values themselves (422 naming the field). Throws an Error for a text of the wrong shape.
 */
export function identityFromText(kind, text) {
  const value = String(text || '').trim();
  const parts = value.split('/').map((part) => part.trim());
  switch (kind) {
    case 'address':
      return { kind, address: value };
    case 'ibeacon': {
      const [uuid, major, minor] = parts;
      if (parts.length !== 3 || !/^\d+$/.test(major) || !/^\d+$/.test(minor)) throw new Error('An iBeacon identity is uuid/major/minor, e.g. F7826DA6-4FA2-4E98-8024-BC5B71E0893E/1/2.');
      return { kind, uuid, major: Number(major), minor: Number(minor) };
    }
    case 'eddystone-uid':
      if (parts.length !== 2) throw new Error('An Eddystone-UID identity is namespace/instance.');
      return { kind, namespace: parts[0], instance: parts[1] };
    case 'altbeacon':
      return { kind, beaconID: value };
    default:
      throw new Error(`The page cannot write a tag identity of kind "${kind}".`);
  }
}

/** A tag identity as typed back (identityFromText's inverse); an irk shows its fingerprint. */
export function identityToText(identity) {
  switch (identity?.kind) {
    case 'address': return identity.address;
    case 'ibeacon': return `${identity.uuid}/${identity.major}/${identity.minor}`;
    case 'eddystone-uid': return `${identity.namespace}/${identity.instance}`;
    case 'altbeacon': return identity.beaconID;
    case 'irk': return `irk ${identity.fingerprint ?? ''}`.trim();
    default: return '';
  }
}

/** A tag's latest position as listed; `roomName(id)`: a room's name, null when not known here. */
export function tagWhere(position, roomName = () => null) {
  if (!position) return 'not located yet';
  const where = `(${position.x.toFixed(1)}, ${position.y.toFixed(1)}) ±${position.accuracyMetres.toFixed(1)} m, heard by ${position.scannersHeard}`;
  if (position.roomID === undefined || position.roomID === null) return where;
  return `${where}, in ${roomName(position.roomID) ?? `room ${position.roomID}`}`;
}

/** A webhook subscription with its delivery counts. */
export function webhookLine(webhook) {
  const { pending, delivered, dead } = webhook.deliveries;
  const subjects = webhook.subjects ? ` (${webhook.subjects.join(', ')})` : '';
  return `${webhook.url} — ${webhook.events.join(', ')}${subjects}: ${delivered} delivered, ${pending} pending, ${dead} dead`;
}

/** A delivery that failed, with why. */
export function failureLine(delivery) {
  const when = delivery.lastAttempt ? new Date(delivery.lastAttempt).toLocaleString() : 'not tried';
  const why = delivery.lastError || (delivery.lastStatus ? `answered ${delivery.lastStatus}` : 'failed');
  const subject = delivery.tagID !== undefined && delivery.tagID !== null ? `tag ${delivery.tagID}` : delivery.scannerID;
  return `webhook ${delivery.webhookID}, event ${delivery.eventID} (${delivery.kind}, ${subject}): ${delivery.state} after ${delivery.attempts} attempts, ${when}: ${why}`;
}

/** One delivery of a webhook as listed under it. */
export function deliveryLine(delivery) {
  const subject = delivery.tagID !== undefined && delivery.tagID !== null ? `tag ${delivery.tagID}` : `scanner ${delivery.scannerID}`;
  const status = delivery.lastStatus ? `, last answer ${delivery.lastStatus}` : '';
  const why = delivery.lastError ? `: ${delivery.lastError}` : '';
  return `event ${delivery.eventID} (${delivery.kind}, ${subject}): ${delivery.state}, ${delivery.attempts} attempts${status}${why}`;
}

/** The smallest minor above every registered one of `uuid`/`major` (1 for none), or null past 65535. */
export function nextFreeMinor(beacons, uuid, major) {
  const same = beacons.filter((b) => b.uuid.toLowerCase() === String(uuid).trim().toLowerCase() && b.major === major);
  const next = same.length ? Math.max(...same.map((b) => b.minor)) + 1 : 1;
  return next <= 65535 ? next : null;
}

/** One "record this tag here" (a TagReference), as its progress line. */
export function referenceLine(reference, tagName) {
  const where = `(${reference.x.toFixed(2)} m, ${reference.y.toFixed(2)} m)`;
  const heard = reference.scannersHeard.length ? `heard by ${reference.scannersHeard.join(', ')}` : 'not heard yet';
  if (reference.state === 'done') return `${tagName} recorded at ${where}: ${reference.windowsRecorded} windows, ${heard}.`;
  return `Recording ${tagName} at ${where}: ${reference.windowsRecorded} of ${reference.windowsWanted} windows, ${heard}. Hold it still.`;
}
