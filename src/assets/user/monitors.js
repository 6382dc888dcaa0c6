// Monitor forms: a push monitor's next scheduled runs follow the cron expression and time zone as
// they are typed. The server reads the schedule (/user/monitors/cron-preview, the same rules as
// saving); this only writes its answer as text. The form works without this file.
(() => {
  const preview = document.getElementById('cron-next')
  const form = preview?.closest('form')
  if (!preview || !form) return
  const fields = ['cron', 'cron_timezone']
  let timer = 0
  let sequence = 0
  const value = (name) => {
    const input = form.elements.namedItem(name)
    return input instanceof HTMLInputElement ? input.value.trim() : ''
  }
  const update = async () => {
    const query = new URLSearchParams({ cron: value('cron'), cron_timezone: value('cron_timezone') })
    const mine = ++sequence
    try {
      const response = await fetch(`${preview.getAttribute('data-preview')}?${query}`, { credentials: 'same-origin' })
      if (mine !== sequence || !response.ok) return
      const answer = await response.json()
      const parts = []
      if (answer.ok && value('cron')) {
        const title = document.createElement('p')
        title.textContent = 'Next runs:'
        const list = document.createElement('ol')
        for (const line of answer.lines) {
          const item = document.createElement('li')
          item.textContent = line
          list.append(item)
        }
        parts.push(title, list)
      } else {
        const line = document.createElement('p')
        line.textContent = answer.lines[0] ?? ''
        parts.push(line)
      }
      preview.replaceChildren(...parts)
    } catch {
      // Offline or stopped: the last preview stays.
    }
  }
  form.addEventListener('input', (event) => {
    if (!(event.target instanceof HTMLInputElement) || !fields.includes(event.target.name)) return
    clearTimeout(timer)
    timer = setTimeout(update, 200)
  })
})()

// Live screens: the monitor list and a monitor's screen follow new results and state changes
// without a reload. The element with data-live-url polls that address every few seconds with the
// ETag of what the page shows (If-None-Match): the server answers 304 while nothing changed, or
// the fresh HTML, whose data-live parts replace the page's. A part holding the focus waits for the
// next change; a hidden tab does not poll. Without this file the screens are the same, still.
;(() => {
  const root = document.querySelector('[data-live-url]')
  if (!root) return
  const url = root.getAttribute('data-live-url')
  let etag = root.getAttribute('data-live-etag') ?? ''
  const every = Number(root.getAttribute('data-live-every') ?? '') || 5000
  let timer = 0
  let stopped = false
  const replaceParts = (html) => {
    const fresh = new DOMParser().parseFromString(html, 'text/html')
    for (const part of fresh.querySelectorAll('[data-live]')) {
      const current = document.querySelector(`[data-live="${CSS.escape(part.getAttribute('data-live') ?? '')}"]`)
      if (!current || current.innerHTML === part.innerHTML || current.contains(document.activeElement)) continue
      // The children, not the element: a live region stays the one assistive technology follows.
      current.replaceChildren(...[...part.childNodes].map((node) => document.importNode(node, true)))
    }
  }
  const poll = async () => {
    clearTimeout(timer)
    if (stopped) return
    if (!document.hidden) {
      try {
        const response = await fetch(url, { headers: { 'if-none-match': etag }, credentials: 'same-origin', cache: 'no-store', redirect: 'manual' })
        if (response.status === 200) {
          etag = response.headers.get('etag') ?? ''
          replaceParts(await response.text())
        } else if (response.status !== 304 && response.status < 500) {
          // Logged out (a redirect), gone or refused: the page stays as it is.
          stopped = true
          return
        }
      } catch {
        // Offline for a moment: the next poll tries again.
      }
    }
    timer = setTimeout(poll, every)
  }
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) void poll()
  })
  timer = setTimeout(poll, every)
})()
