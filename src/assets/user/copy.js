// Lantern web app: "Copy" buttons (progressive enhancement; without JavaScript the value is selectable
// text and the button stays hidden). A button names the field to copy in data-copy="<id>"; the result
// is announced in the polite live region next to it.
(() => {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false
    button.addEventListener('click', async () => {
      const field = document.getElementById(button.dataset.copy ?? '')
      const status = document.getElementById(`${button.dataset.copy}-status`)
      if (!(field instanceof HTMLInputElement)) return
      field.select()
      try {
        await navigator.clipboard.writeText(field.value)
        if (status) status.textContent = 'Copied to the clipboard.'
      } catch {
        if (status) status.textContent = 'Copy failed: select the text and copy it yourself.'
      }
    })
  }
})()
