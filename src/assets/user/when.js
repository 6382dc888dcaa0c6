// Incident and maintenance forms: small enhancements only (the forms work without this file).
// - A time-zone select the owner has never set (data-zone-guess) starts on the browser's zone.
// - Choosing an incident template fills the title and message with its wording, unless the owner
//   already typed their own (the server fills {{component}} and {{page}} on submit).
(() => {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone
  for (const select of document.querySelectorAll('select[data-zone-guess]')) {
    if (!(select instanceof HTMLSelectElement) || !browserZone) continue
    if ([...select.options].some((option) => option.value === browserZone)) select.value = browserZone
  }
  for (const select of document.querySelectorAll('select[data-fills-incident]')) {
    if (!(select instanceof HTMLSelectElement) || !select.form) continue
    const form = select.form
    const title = form.elements.namedItem('title')
    const message = form.elements.namedItem('message')
    let filled = { title: '', message: '' }
    select.addEventListener('change', () => {
      const source = form.querySelector(`template[data-template-id="${CSS.escape(select.value)}"]`)
      const next = source ? { title: source.getAttribute('data-title') ?? '', message: source.getAttribute('data-message') ?? '' } : { title: '', message: '' }
      // Only fields still empty or holding the previous template's words are replaced.
      if (title instanceof HTMLInputElement && (title.value === '' || title.value === filled.title)) title.value = next.title
      if (message instanceof HTMLTextAreaElement && (message.value === '' || message.value === filled.message)) message.value = next.message
      filled = next
    })
  }
})()
