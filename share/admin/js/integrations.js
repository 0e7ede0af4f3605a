// The Integrations panel: the MQTT bridge's state and the webhook subscriptions with their
// failures, read from switchd's admin endpoints. Reading only; subscriptions are made with the API.

import { failureLine, webhookLine } from './format.js';

const MAX_FAILURES_SHOWN = 10;

function item(text, className) {
  const li = document.createElement('li');
  const span = document.createElement('span');
  span.className = className || 'name';
  span.textContent = text;
  li.append(span);
  return li;
}

/** "not configured" when MQTT is off (`enabled: false`); switchd always answers this route. */
async function mqttText(api) {
  const mqtt = await api.get('/v1/integrations/mqtt');
  if (mqtt.enabled === false) return { text: 'MQTT: not configured.', isError: false };
  const broker = mqtt.broker ? ` ${mqtt.broker}` : '';
  if (mqtt.connected === true) return { text: `MQTT: connected to${broker}.`, isError: false };
  const why = mqtt.lastError ? ` (${mqtt.lastError})` : '';
  return { text: `MQTT: not connected to${broker}${why}.`, isError: true };
}

/**
 * Fills the panel. Each part fails on its own: an error in one is shown in its place.
 * @param {import('./api.js').Api} api
 * @param {(id: string) => HTMLElement} $
 */
export async function loadIntegrations(api, $) {
  const [mqtt, webhooks] = await Promise.allSettled([mqttText(api), api.get('/v1/integrations/webhooks')]);
  const mqttLine = $('mqtt-status');
  if (mqtt.status === 'fulfilled') {
    mqttLine.textContent = mqtt.value.text;
    mqttLine.classList.toggle('error', mqtt.value.isError);
  } else {
    mqttLine.textContent = `MQTT: could not be read (${mqtt.reason.message}).`;
    mqttLine.classList.add('error');
  }
  const list = $('webhook-list');
  const failures = $('webhook-failures');
  if (webhooks.status === 'rejected') {
    list.replaceChildren(item(`Webhooks could not be read (${webhooks.reason.message}).`, 'name error'));
    failures.replaceChildren();
    return;
  }
  const status = webhooks.value;
  list.replaceChildren(...(status.webhooks.length
    ? status.webhooks.map((webhook) => item(webhookLine(webhook), webhook.deliveries.dead > 0 ? 'name error' : 'name'))
    : [item('No webhooks. Add one with POST /v1/webhooks (README, "Integrations").', 'name hint')]));
  failures.replaceChildren(...status.recentFailures.slice(0, MAX_FAILURES_SHOWN).map((delivery) => item(failureLine(delivery), 'name error')));
  $('webhook-failures-h').hidden = status.recentFailures.length === 0;
}
