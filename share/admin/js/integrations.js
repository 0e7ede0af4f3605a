// The Integrations panel (panel.js): the MQTT bridge's state, and the webhook subscriptions:
// made here (URL, event kinds, whose events; the signing secret shown once), each with its
// delivery counts, its deliveries on demand, and Delete; the latest failed deliveries with why.
// GET /v1/integrations/mqtt, /v1/integrations/webhooks; POST /v1/webhooks,
// DELETE /v1/webhooks/{id}, GET /v1/webhooks/{id}/deliveries.

import { confirmAction } from './dialogs.js';
import { button, listItem } from './dom.js';
import { deliveryLine, failureLine, webhookLine } from './format.js';
import { Panel } from './panel.js';

const MAX_FAILURES_SHOWN = 10;
const DELIVERIES_SHOWN = 20;

/** "not configured" when MQTT is off (`enabled: false`); switchd always answers this route. */
async function mqttText(api) {
  const mqtt = await api.get('/v1/integrations/mqtt');
  if (mqtt.enabled === false) return { text: 'MQTT: not configured.', isError: false };
  const broker = mqtt.broker ? ` ${mqtt.broker}` : '';
  if (mqtt.connected === true) return { text: `MQTT: connected to${broker}.`, isError: false };
  const why = mqtt.lastError ? ` (${mqtt.lastError})` : '';
  return { text: `MQTT: not connected to${broker}${why}.`, isError: true };
}

function line(text, className) {
  const item = listItem(text);
  item.firstChild.className = className;
  return item;
}

export class IntegrationsPanel extends Panel {
  wire() {
    this.on('integrations-refresh', 'click', () => this.refresh());
    this.onSubmit('webhook-form', () => this.create());
  }

  clear() {
    const { $ } = this.context;
    $('webhook-secret').hidden = true;
    $('webhook-secret-value').textContent = '';
    $('webhook-deliveries').replaceChildren();
  }

  /** Fills the panel. Each part fails on its own: an error in one is shown in its place. */
  async refresh() {
    const { api, $, guard } = this.context;
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
      list.replaceChildren(line(`Webhooks could not be read (${webhooks.reason.message}).`, 'name error'));
      failures.replaceChildren();
      return;
    }
    const status = webhooks.value;
    list.replaceChildren(...(status.webhooks.length
      ? status.webhooks.map((webhook) => {
        const item = listItem(webhookLine(webhook), { webhookId: webhook.id },
          button('Deliveries', () => this.showDeliveries(webhook), guard),
          button('Delete…', () => this.remove(webhook), guard, 'danger'));
        if (webhook.deliveries.dead > 0) item.firstChild.classList.add('error');
        return item;
      })
      : [line('No webhooks yet: add one below.', 'name hint')]));
    failures.replaceChildren(...status.recentFailures.slice(0, MAX_FAILURES_SHOWN).map((delivery) => line(failureLine(delivery), 'name error')));
    $('webhook-failures-h').hidden = status.recentFailures.length === 0;
  }

  async create() {
    const { api, $ } = this.context;
    const checked = (name) => [...document.querySelectorAll(`input[name="${name}"]:checked`)].map((input) => input.value);
    const events = checked('webhook-event');
    const subjects = checked('webhook-subject');
    if (events.length === 0) throw new Error('Tick at least one event kind for the webhook.');
    if (subjects.length === 0) throw new Error('Tick scanners, tags or beacons: whose events the webhook gets.');
    const made = await api.post('/v1/webhooks', { url: $('webhook-url').value.trim(), events, subjects });
    $('webhook-url').value = '';
    $('webhook-secret-value').textContent = made.secret;
    $('webhook-secret').hidden = false;
    $('webhook-secret').dataset.webhookId = String(made.webhook.id);
    await this.refresh();
    this.context.say(`Webhook to ${made.webhook.url} made; copy its signing secret now, it is shown once.`);
  }

  async showDeliveries(webhook) {
    const { api, $ } = this.context;
    const page = await api.get(`/v1/webhooks/${webhook.id}/deliveries?limit=${DELIVERIES_SHOWN}`);
    $('webhook-deliveries-h').textContent = `Deliveries to ${webhook.url}`;
    $('webhook-deliveries-h').hidden = false;
    const list = $('webhook-deliveries');
    list.dataset.webhookId = String(webhook.id);
    list.replaceChildren(...page.items.map((delivery) => line(deliveryLine(delivery), delivery.state === 'dead' ? 'name error' : 'name')));
    if (page.items.length === 0) list.replaceChildren(line('No deliveries yet.', 'name hint'));
  }

  async remove(webhook) {
    if (!await confirmAction(`Delete the webhook to ${webhook.url}? switchd stops delivering to it.`)) return;
    await this.context.api.delete(`/v1/webhooks/${webhook.id}`);
    const { $ } = this.context;
    if ($('webhook-deliveries').dataset.webhookId === String(webhook.id)) {
      $('webhook-deliveries').replaceChildren();
      $('webhook-deliveries-h').hidden = true;
    }
    await this.refresh();
    this.context.say(`Webhook to ${webhook.url} deleted.`);
  }
}
