// Small builders of the page's elements. Text from switchd always goes in as textContent (a
// name with markup stays text); nothing here takes HTML.

/** An element with `properties` (textContent, className, type, …), `dataset` entries and children. */
export function el(tag, properties = {}, dataset = {}, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  for (const [key, value] of Object.entries(dataset)) node.dataset[key] = String(value);
  node.append(...children);
  return node;
}

export function option(value, text) {
  return el('option', { value: String(value), textContent: text });
}

/** A button running `action` through `guard` (its failure shown, never thrown). */
export function button(text, action, guard, className) {
  const node = el('button', { type: 'button', textContent: text });
  if (className) node.className = className;
  node.addEventListener('click', guard(action));
  return node;
}

/** A list item whose text is in a `.name` span, then `extras` (buttons). */
export function listItem(text, dataset = {}, ...extras) {
  return el('li', {}, dataset, el('span', { className: 'name', textContent: text }), ...extras);
}

/** Replaces a select's options, keeping the chosen value when it is still there. */
export function fillSelect(select, options) {
  const current = select.value;
  select.replaceChildren(...options);
  if (options.some((o) => o.value === current)) select.value = current;
}
