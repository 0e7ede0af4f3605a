// Dragging marks on the plan: a fixed scanner's square (data-scanner-id), a beacon's diamond
// (data-beacon-id) or a corner of a room's outline (data-corner-id, "roomID:index"). A press that moves is a drag, dropped where the pointer is let go; a press
// that does not is a tap on the mark. Either way the plan's own tap handler does not see it
// (this one is added first and stops the event).

import { isDrag } from './geometry.js';
import { eventPoint } from './plan.js';

const KINDS = [['scannerId', 'scanner'], ['beaconId', 'beacon'], ['cornerId', 'corner']];

/** The draggable mark under `target`: {kind, id, node} or null. */
function grabbed(target) {
  const node = target?.closest?.('[data-scanner-id], [data-beacon-id], [data-corner-id]');
  if (!node || !node.closest('#plan')) return null;
  for (const [key, kind] of KINDS) {
    if (node.dataset[key] !== undefined) return { kind, id: kind === 'beacon' ? Number(node.dataset[key]) : node.dataset[key], node };
  }
  return null;
}

/**
 * Wires dragging on `svg`.
 * @param {SVGSVGElement} svg
 * @param {{ enabled: () => boolean, grabs?: (mark) => boolean, tap: (mark) => Promise<void>|void,
 *           drop: (mark, point) => Promise<void>|void, guard: (action: Function) => Function }} handlers
 *   `grabs` says whether a press on that mark is a drag (else it is left to the plan's tap);
 *   `point`: where it was let go, in plan pixels
 */
export function wireDrag(svg, { enabled, grabs = () => true, tap, drop, guard }) {
  let pressed = null;
  svg.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || !enabled()) return;
    const mark = grabbed(event.target);
    if (!mark || !grabs(mark)) return;
    pressed = { mark, start: { x: event.clientX, y: event.clientY }, from: eventPoint(svg, event), moved: false };
    svg.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  svg.addEventListener('pointermove', (event) => {
    if (!pressed) return;
    pressed.moved ||= isDrag(pressed.start, { x: event.clientX, y: event.clientY });
    if (!pressed.moved) return;
    const at = eventPoint(svg, event);
    // The page may have redrawn the mark since: move whichever node now stands for it.
    const node = svg.querySelector(`[data-${pressed.mark.kind}-id="${CSS.escape(String(pressed.mark.id))}"]`) || pressed.mark.node;
    node.setAttribute('transform', `translate(${at.x - pressed.from.x} ${at.y - pressed.from.y})`);
    node.classList.add('dragging');
  });
  const end = guard(async (event) => {
    const was = pressed;
    pressed = null;
    if (!was) return;
    event.stopImmediatePropagation();
    if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
    if (was.moved) await drop(was.mark, eventPoint(svg, event));
    else await tap(was.mark);
  });
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', () => { pressed = null; });
}
