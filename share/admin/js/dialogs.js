// Confirmations for destructive actions and a small text prompt, as modal <dialog>s (focus is
// kept inside them; Escape cancels).

function ask(dialog, onOpen) {
  return new Promise((resolve) => {
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    onOpen();
    dialog.showModal();
  });
}

/** Whether the admin confirmed `text`. */
export function confirmAction(text) {
  const dialog = document.getElementById('confirm-dialog');
  return ask(dialog, () => {
    document.getElementById('confirm-text').textContent = text;
  });
}

/** The text typed, or null when cancelled or left empty. */
export async function promptText(label, initial) {
  const dialog = document.getElementById('prompt-dialog');
  const input = document.getElementById('prompt-input');
  const ok = await ask(dialog, () => {
    document.getElementById('prompt-label').textContent = label;
    input.value = initial;
  });
  const text = input.value.trim();
  return ok && text ? text : null;
}
