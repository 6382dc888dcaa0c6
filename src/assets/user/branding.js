// Branding, access and embed screens: small enhancements only; every one works without this file.
// - Branding: the light/dark sample follows the colours as they are typed. The server computes the
//   colours (/user/pages/:id/branding/preview.css?primary=…, the same rules as saving); this only swaps
//   the stylesheet, or says why the colours would be refused. The owner's CSS never runs here.
// - Snippets and secrets: a Copy button beside each (the text stays selectable without it).
(() => {
  const form = document.getElementById('branding-form')
  const link = document.getElementById('preview-css')
  const status = document.getElementById('preview-status')
  if (form instanceof HTMLFormElement && link instanceof HTMLLinkElement && status) {
    const fields = ['primary', 'secondary', 'accent', 'background', 'text']
    let timer = 0
    let sequence = 0
    const update = async () => {
      const query = new URLSearchParams()
      for (const name of fields) {
        const value = form.elements.namedItem(name)
        if (value instanceof HTMLInputElement && value.value.trim() !== '') query.set(name, value.value.trim())
      }
      const url = `${form.getAttribute('data-preview-css')}?${query}`
      const mine = ++sequence
      try {
        const response = await fetch(url, { credentials: 'same-origin' })
        if (mine !== sequence) return
        if (!response.ok) {
          status.textContent = response.status === 400 ? `Not saved like this: ${await response.text()}` : ''
          return
        }
        status.textContent = ''
        link.href = url
      } catch {
        // Offline or stopped: the sample keeps the last colours.
      }
    }
    form.addEventListener('input', (event) => {
      if (!(event.target instanceof HTMLInputElement) || !fields.includes(event.target.name)) return
      clearTimeout(timer)
      timer = setTimeout(update, 200)
    })
  }

  for (const block of document.querySelectorAll('[data-copyable]')) {
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'secondary copy'
    button.textContent = 'Copy'
    button.setAttribute('aria-label', `Copy ${block.dataset.copyable}`)
    const said = document.createElement('span')
    said.setAttribute('role', 'status')
    said.className = 'hint'
    button.addEventListener('click', async () => {
      const text = block.textContent ?? ''
      try {
        await navigator.clipboard.writeText(text)
      } catch {
        const range = document.createRange()
        range.selectNodeContents(block)
        const selection = getSelection()
        selection?.removeAllRanges()
        selection?.addRange(range)
        document.execCommand('copy')
      }
      said.textContent = 'Copied.'
      setTimeout(() => { said.textContent = '' }, 2000)
    })
    block.after(button, said)
  }
})()
