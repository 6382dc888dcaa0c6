// Lantern web app: small enhancements only; every screen works without this file.
// - After a form comes back with errors, focus the first field in error (keyboard and screen readers
//   land where the fix is needed).
// - A submitted form's buttons are disabled for a moment, so a double click does not post twice.
// A form's properties are read through getAttribute: a field named like one (`method`, `action`,
// `name`…) shadows the property on the form element.
(() => {
  const invalid = document.querySelector('[aria-invalid="true"]')
  if (invalid instanceof HTMLElement) invalid.focus()
  document.addEventListener('submit', (event) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement) || (form.getAttribute('method') ?? '').toLowerCase() !== 'post') return
    for (const button of form.querySelectorAll('button[type=submit]')) {
      button.setAttribute('aria-disabled', 'true')
      setTimeout(() => button.removeAttribute('aria-disabled'), 3000)
    }
  })
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[aria-disabled="true"]') : null
    if (button) event.preventDefault()
  }, true)
})()
