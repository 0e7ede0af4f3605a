// Scanner settings from switchd on the Scanners card (docs/scanner-settings.md): a form per
// scanner, and one for the fleet's defaults (`*`), each key left empty to inherit (the fleet's,
// then the scanner's own TOML); Save PATCHes the settings whole. Each scanner shows the settings
// revision asked of it, the one it applied, and every setting it reported it could not apply.

/** Every setting: its key, its label, and the input that edits it. */
export const SETTINGS = [
  { key: 'bleScan', label: 'BLE scan', options: ['passive', 'active'] },
  { key: 'bleIntervalMs', label: 'BLE interval (ms, 2.5–10240)', min: 2.5, max: 10240, step: 0.625 },
  { key: 'bleWindowMs', label: 'BLE window (ms, at most the interval)', min: 2.5, max: 10240, step: 0.625 },
  { key: 'wifiScanPeriodS', label: 'Wi-Fi scan period (s, 0: back to back)', min: 0, max: 3600, step: 'any' },
  { key: 'locateWindowMs', label: 'Locate window (ms)', min: 100, max: 60000, step: 1 },
  { key: 'listen', label: 'Listening role', options: ['true', 'false'] },
  { key: 'listenWindowS', label: 'Listening window (s)', min: 0.001, max: 60, step: 'any' },
  { key: 'logLevel', label: 'Log level', options: ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'critical'] },
];

/**
 * The settings object for switchd from the form's texts by key: an empty text leaves the key
 * out (inherited); numbers and `listen` are typed; anything else is sent as typed, for switchd
 * to refuse naming it.
 */
export function settingsFromValues(values) {
  const settings = {};
  for (const { key, options } of SETTINGS) {
    const text = String(values[key] ?? '').trim();
    if (text === '') continue;
    if (key === 'listen') settings[key] = text === 'true' ? true : text === 'false' ? false : text;
    else if (options) settings[key] = text;
    else settings[key] = Number.isFinite(Number(text)) ? Number(text) : text;
  }
  return settings;
}

/** The form's texts by key for stored `settings` (absent keys empty). */
export function valuesFromSettings(settings) {
  return Object.fromEntries(SETTINGS.map(({ key }) => [key, settings && settings[key] !== undefined ? String(settings[key]) : '']));
}

/** One line on what a scanner runs with: the revision asked, the one applied, and what it could not apply. */
export function settingsLine(scanner) {
  if (!scanner.settingsRevision) return 'settings: its own TOML';
  const applied = scanner.appliedRevision === scanner.settingsRevision
    ? 'applied' : `applied ${scanner.appliedRevision ? `revision ${scanner.appliedRevision}` : 'none yet'}`;
  const unapplied = Object.entries(scanner.unappliedSettings || {}).map(([key, why]) => `${key} not applied: ${why}`);
  return [`settings revision ${scanner.settingsRevision}, ${applied}`, ...unapplied].join('; ');
}

/**
 * A form editing `settings`, which calls `save(settings)` on submit.
 * @param {string} idPrefix makes the inputs' IDs unique on the page
 */
export function settingsForm(idPrefix, settings, save) {
  const form = document.createElement('form');
  form.className = 'scanner-settings';
  const values = valuesFromSettings(settings);
  for (const { key, label, options, min, max, step } of SETTINGS) {
    const id = `${idPrefix}-${key}`;
    const caption = Object.assign(document.createElement('label'), { htmlFor: id, textContent: label });
    let input;
    if (options) {
      input = document.createElement('select');
      input.append(new Option('(inherit)', ''), ...options.map((option) => new Option(option, option)));
    } else {
      input = Object.assign(document.createElement('input'), { type: 'number', min: String(min), max: String(max), step: String(step) });
      input.placeholder = '(inherit)';
    }
    Object.assign(input, { id, name: key, value: values[key] });
    form.append(caption, input);
  }
  const submit = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Save settings' });
  form.append(submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const typed = Object.fromEntries(SETTINGS.map(({ key }) => [key, form.elements.namedItem(key).value]));
    save(settingsFromValues(typed));
  });
  return form;
}
