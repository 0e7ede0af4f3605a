// The page's status line, and actions whose failures land there instead of the console.

/** Shows `text` in the element `#status`, in the error colour when `isError`. */
export function say(text, isError = false) {
  const status = document.getElementById('status');
  status.textContent = text;
  status.classList.toggle('error', isError);
}

/**
 * Wraps an action so that a failure is shown with `say`, worded by `describe(error)`, never
 * thrown to the console; an aborted request is no failure.
 */
export function guardWith(describe) {
  return (action) => async (...args) => {
    try {
      await action(...args);
    } catch (error) {
      if (error.name === 'AbortError') return;
      say(describe(error), true);
    }
  };
}
