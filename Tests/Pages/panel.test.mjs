// The admin page's panel contract (share/admin/js/panel.js): panels mount once with the page's
// context, refresh together (one failing is reported, the others still refresh) and unmount.
// Run with `scripts/admin-js-test`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Panel, Panels } from '../../share/admin/js/panel.js';

function recorder(name, log, { fails = false } = {}) {
  return {
    mount: (context) => log.push(`${name} mount ${context.id}`),
    refresh: async () => {
      log.push(`${name} refresh`);
      if (fails) throw new Error(`${name} unreadable`);
    },
    unmount: () => log.push(`${name} unmount`),
  };
}

test('panels mount once, refresh together and unmount', async () => {
  const log = [];
  const said = [];
  const panels = new Panels();
  panels.add(recorder('a', log));
  panels.add(recorder('b', log, { fails: true }));
  const context = { id: 1, say: (text, isError) => said.push([text, isError]) };
  panels.mount(context);
  panels.mount({ id: 2 });
  await panels.refresh();
  panels.unmount();
  assert.deepEqual(log, ['a mount 1', 'b mount 1', 'a refresh', 'b refresh', 'a unmount', 'b unmount']);
  assert.deepEqual(said, [['Not all panels could be read: b unreadable', true]]);
  panels.mount({ id: 3, say: () => {} });
  assert.equal(log.at(-1), 'b mount 3');
});

test('a Panel listens from mount to unmount; a failing action is handed to guard, a submit is not sent', async () => {
  const button = new EventTarget();
  const form = new EventTarget();
  const runs = [];
  const failures = [];
  class Probe extends Panel {
    wire() {
      this.on('button', 'click', () => runs.push('click'));
      this.onSubmit('form', () => { throw new Error('refused'); });
    }
    clear() { runs.push('cleared'); }
  }
  const guard = (action) => async (...args) => {
    try { await action(...args); } catch (error) { failures.push(error.message); }
  };
  const probe = new Probe();
  probe.mount({ $: (id) => ({ button, form })[id], guard });
  button.dispatchEvent(new Event('click'));
  const submit = new Event('submit', { cancelable: true });
  form.dispatchEvent(submit);
  await new Promise((resolve) => { setImmediate(resolve); });
  assert.equal(submit.defaultPrevented, true);
  probe.unmount();
  button.dispatchEvent(new Event('click'));
  assert.deepEqual(runs, ['click', 'cleared']);
  assert.deepEqual(failures, ['refused']);
});
